// The functions of CProfileLibraries.h: each library opened with dlopen at its first use, its
// functions found with dlsym once, and called through that table. Facts only: which library,
// which function; what a failure means is RizqProfiles' (Swift) to say.
#include "CProfileLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// One library: the file names to try (Debian 12's soname first), its functions, and the outcome
// of the one attempt to load it.
struct library {
    const char *const *names;
    const char *const *symbols;
    void **table;
    size_t count;
    pthread_once_t once;
    bool loaded;
    char error[512];
};

static void load_library(struct library *library) {
    void *handle = NULL;
    const char *last = "not found";
    for (const char *const *name = library->names; *name != NULL && handle == NULL; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) last = dlerror();
    }
    if (handle == NULL) {
        snprintf(library->error, sizeof library->error, "%s", last ? last : "cannot be loaded");
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        library->table[index] = dlsym(handle, library->symbols[index]);
        if (library->table[index] == NULL) {
            snprintf(library->error, sizeof library->error, "%s has no function %s", library->names[0], library->symbols[index]);
            return;
        }
    }
    library->loaded = true;
}

static bool report(struct library *library, char *error, size_t error_size) {
    if (!library->loaded && error != NULL && error_size > 0) snprintf(error, error_size, "%s", library->error);
    return library->loaded;
}

// X-macros: each library's functions, with their return type, parameters and arguments.
#define LEVELDB_FUNCTIONS(F, V)                                                                                       \
    F(leveldb_t *, leveldb_open, (const leveldb_options_t *a, const char *b, char **c), (a, b, c))                  \
    V(leveldb_close, (leveldb_t *a), (a))                                                                     \
    V(leveldb_free, (void *a), (a))                                                                           \
    F(leveldb_options_t *, leveldb_options_create, (void), ())                                                      \
    V(leveldb_options_destroy, (leveldb_options_t *a), (a))                                                   \
    V(leveldb_options_set_create_if_missing, (leveldb_options_t *a, uint8_t b), (a, b))                       \
    V(leveldb_options_set_paranoid_checks, (leveldb_options_t *a, uint8_t b), (a, b))                         \
    F(leveldb_readoptions_t *, leveldb_readoptions_create, (void), ())                                              \
    V(leveldb_readoptions_destroy, (leveldb_readoptions_t *a), (a))                                           \
    V(leveldb_readoptions_set_verify_checksums, (leveldb_readoptions_t *a, uint8_t b), (a, b))                \
    V(leveldb_readoptions_set_fill_cache, (leveldb_readoptions_t *a, uint8_t b), (a, b))                      \
    F(leveldb_iterator_t *, leveldb_create_iterator, (leveldb_t *a, const leveldb_readoptions_t *b), (a, b))        \
    V(leveldb_iter_destroy, (leveldb_iterator_t *a), (a))                                                     \
    F(uint8_t, leveldb_iter_valid, (const leveldb_iterator_t *a), (a))                                              \
    V(leveldb_iter_seek_to_first, (leveldb_iterator_t *a), (a))                                               \
    V(leveldb_iter_next, (leveldb_iterator_t *a), (a))                                                        \
    F(const char *, leveldb_iter_key, (const leveldb_iterator_t *a, size_t *b), (a, b))                             \
    F(const char *, leveldb_iter_value, (const leveldb_iterator_t *a, size_t *b), (a, b))                           \
    V(leveldb_iter_get_error, (const leveldb_iterator_t *a, char **b), (a, b))

#define SQLITE_FUNCTIONS(F, V)                                                                                        \
    F(int, sqlite3_open_v2, (const char *a, sqlite3 **b, int c, const char *d), (a, b, c, d))                       \
    F(int, sqlite3_close_v2, (sqlite3 *a), (a))                                                                     \
    F(const char *, sqlite3_errmsg, (sqlite3 *a), (a))                                                              \
    F(int, sqlite3_extended_errcode, (sqlite3 *a), (a))                                                             \
    F(int, sqlite3_prepare_v2, (sqlite3 *a, const char *b, int c, sqlite3_stmt **d, const char **e), (a, b, c, d, e)) \
    F(int, sqlite3_step, (sqlite3_stmt *a), (a))                                                                    \
    F(int, sqlite3_finalize, (sqlite3_stmt *a), (a))                                                                \
    F(int, sqlite3_column_type, (sqlite3_stmt *a, int b), (a, b))                                                   \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *a, int b), (a, b))                                        \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *a, int b), (a, b))                                 \
    F(const void *, sqlite3_column_blob, (sqlite3_stmt *a, int b), (a, b))                                          \
    F(int, sqlite3_column_bytes, (sqlite3_stmt *a, int b), (a, b))

#define SNAPPY_FUNCTIONS(F, V)                                                                                        \
    F(snappy_status, snappy_uncompressed_length, (const char *a, size_t b, size_t *c), (a, b, c))                   \
    F(snappy_status, snappy_uncompress, (const char *a, size_t b, char *c, size_t *d), (a, b, c, d))

// For each library: the table of pointers, the names to look up, the loader and the wrappers.
#define FIELD(ret, name, params, args) ret(*name) params;
#define VOID_FIELD(name, params, args) void(*name) params;
#define NAME(ret, name, params, args) #name,
#define VOID_NAME(name, params, args) #name,

#define DEFINE_LIBRARY(prefix, FUNCTIONS, ...)                                                                     \
    static struct { FUNCTIONS(FIELD, VOID_FIELD) } prefix##_table;                                                             \
    static const char *const prefix##_symbols[] = {FUNCTIONS(NAME, VOID_NAME)};                                               \
    static const char *const prefix##_names[] = {__VA_ARGS__, NULL};                                               \
    static struct library prefix##_library = {                                                                     \
        prefix##_names, prefix##_symbols, (void **)&prefix##_table,                                                \
        sizeof prefix##_symbols / sizeof prefix##_symbols[0], PTHREAD_ONCE_INIT, false, ""};                       \
    static void prefix##_load_once(void) { load_library(&prefix##_library); }                                      \
    bool rizq_##prefix##_load(char *error, size_t error_size) {                                                    \
        pthread_once(&prefix##_library.once, prefix##_load_once);                                                  \
        return report(&prefix##_library, error, error_size);                                                       \
    }

DEFINE_LIBRARY(leveldb, LEVELDB_FUNCTIONS, "libleveldb.so.1d", "libleveldb.so.1", "libleveldb.so")
DEFINE_LIBRARY(sqlite, SQLITE_FUNCTIONS, "libsqlite3.so.0", "libsqlite3.so")
DEFINE_LIBRARY(snappy, SNAPPY_FUNCTIONS, "libsnappy.so.1", "libsnappy.so")

#define LEVELDB_WRAPPER(ret, name, params, args) ret rizq_##name params { return leveldb_table.name args; }
#define LEVELDB_VOID_WRAPPER(name, params, args) void rizq_##name params { leveldb_table.name args; }
#define SQLITE_WRAPPER(ret, name, params, args) ret rizq_##name params { return sqlite_table.name args; }
#define SQLITE_VOID_WRAPPER(name, params, args) void rizq_##name params { sqlite_table.name args; }
#define SNAPPY_WRAPPER(ret, name, params, args) ret rizq_##name params { return snappy_table.name args; }
#define SNAPPY_VOID_WRAPPER(name, params, args) void rizq_##name params { snappy_table.name args; }
LEVELDB_FUNCTIONS(LEVELDB_WRAPPER, LEVELDB_VOID_WRAPPER)
SQLITE_FUNCTIONS(SQLITE_WRAPPER, SQLITE_VOID_WRAPPER)
SNAPPY_FUNCTIONS(SNAPPY_WRAPPER, SNAPPY_VOID_WRAPPER)
