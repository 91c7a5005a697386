#ifndef C_SIMDJSON_FLOOR_H
#define C_SIMDJSON_FLOOR_H

// The `open` workload's parse floor (Benchmarks/Sources/RizqBench/Floors/ParseFloor.swift):
// simdjson (Debian's libsimdjson-dev) parses a suite file and visits every value, behind plain C
// so that Swift calls it without C++ interoperability.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How simdjson reads the document.
typedef enum {
    /// On-demand: the structural index (stage 1), then each value parsed as it is visited.
    RIZQ_SIMDJSON_ON_DEMAND = 0,
    /// DOM: the whole document parsed to simdjson's tape first, then the tape visited.
    RIZQ_SIMDJSON_DOM = 1,
} rizq_simdjson_mode;

/// One member of the top-level object: its key, unescaped, in UTF-8 (not NUL-terminated), valid
/// until the next parse with the same parser.
typedef struct {
    const char *key;
    size_t key_length;
} rizq_simdjson_member;

/// A parser and its buffers, reused from one parse to the next (as simdjson asks).
typedef struct rizq_simdjson_parser rizq_simdjson_parser;

/// Bytes that must be readable (any value) after a document's last byte.
size_t rizq_simdjson_padding(void);

/// The name of the implementation simdjson chose for this processor ("icelake", "haswell", ...)
/// and the one its on-demand front end was compiled for.
const char *rizq_simdjson_active_implementation(void);
const char *rizq_simdjson_builtin_implementation(void);

/// A new parser, or NULL when memory runs out.
rizq_simdjson_parser *rizq_simdjson_parser_create(void);
void rizq_simdjson_parser_destroy(rizq_simdjson_parser *parser);

/// Parses the `length` bytes at `bytes` (with `rizq_simdjson_padding()` more readable after
/// them), which must be one JSON object, visiting every value at every depth: numbers parsed,
/// strings and keys unescaped, and the whole text validated. Returns the number of members of
/// the top-level object, whose keys `rizq_simdjson_members` then gives, or -1 when the text is
/// not one JSON object (`rizq_simdjson_error` says why). `checksum` receives a sum over the
/// values visited, for the caller to keep (so that no visit can be optimised away).
long rizq_simdjson_parse(rizq_simdjson_parser *parser, rizq_simdjson_mode mode,
                         const uint8_t *bytes, size_t length, uint64_t *checksum);

/// The members of the last successful parse, in the file's order.
const rizq_simdjson_member *rizq_simdjson_members(const rizq_simdjson_parser *parser);

/// Why the last parse failed (simdjson's message).
const char *rizq_simdjson_error(const rizq_simdjson_parser *parser);

#ifdef __cplusplus
}
#endif

#endif
