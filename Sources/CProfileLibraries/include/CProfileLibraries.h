#ifndef RIZQ_CPROFILELIBRARIES_H
#define RIZQ_CPROFILELIBRARIES_H

/*
 * LevelDB, SQLite and snappy as RizqProfiles reads browser storage with them: their C APIs
 * (declarations from Debian's -dev headers), called through these rizq_… functions, which load
 * each library with dlopen at its first use. Nothing links them, so a program built with
 * RizqProfiles — the rizq-prefs tool — starts without loading them, and runs where they are not
 * installed (a command that reads a profile then fails, saying which package to install).
 * Each rizq_…_load is safe to call from any thread, any number of times.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <leveldb/c.h>
#include <snappy-c.h>
#include <sqlite3.h>

/* Loads the library once; false, with why in `error`, when it cannot be loaded. */
bool rizq_leveldb_load(char *error, size_t error_size);
bool rizq_sqlite_load(char *error, size_t error_size);
bool rizq_snappy_load(char *error, size_t error_size);

/* LevelDB: only after rizq_leveldb_load returned true. */
leveldb_t *rizq_leveldb_open(const leveldb_options_t *options, const char *name, char **errptr);
void rizq_leveldb_close(leveldb_t *db);
void rizq_leveldb_free(void *pointer);
leveldb_options_t *rizq_leveldb_options_create(void);
void rizq_leveldb_options_destroy(leveldb_options_t *options);
void rizq_leveldb_options_set_create_if_missing(leveldb_options_t *options, uint8_t value);
void rizq_leveldb_options_set_paranoid_checks(leveldb_options_t *options, uint8_t value);
leveldb_readoptions_t *rizq_leveldb_readoptions_create(void);
void rizq_leveldb_readoptions_destroy(leveldb_readoptions_t *options);
void rizq_leveldb_readoptions_set_verify_checksums(leveldb_readoptions_t *options, uint8_t value);
void rizq_leveldb_readoptions_set_fill_cache(leveldb_readoptions_t *options, uint8_t value);
leveldb_iterator_t *rizq_leveldb_create_iterator(leveldb_t *db, const leveldb_readoptions_t *options);
void rizq_leveldb_iter_destroy(leveldb_iterator_t *iterator);
uint8_t rizq_leveldb_iter_valid(const leveldb_iterator_t *iterator);
void rizq_leveldb_iter_seek_to_first(leveldb_iterator_t *iterator);
void rizq_leveldb_iter_next(leveldb_iterator_t *iterator);
const char *rizq_leveldb_iter_key(const leveldb_iterator_t *iterator, size_t *length);
const char *rizq_leveldb_iter_value(const leveldb_iterator_t *iterator, size_t *length);
void rizq_leveldb_iter_get_error(const leveldb_iterator_t *iterator, char **errptr);

/* SQLite: only after rizq_sqlite_load returned true. */
int rizq_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
int rizq_sqlite3_close_v2(sqlite3 *db);
const char *rizq_sqlite3_errmsg(sqlite3 *db);
int rizq_sqlite3_extended_errcode(sqlite3 *db);
int rizq_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail);
int rizq_sqlite3_step(sqlite3_stmt *statement);
int rizq_sqlite3_finalize(sqlite3_stmt *statement);
int rizq_sqlite3_column_type(sqlite3_stmt *statement, int column);
sqlite3_int64 rizq_sqlite3_column_int64(sqlite3_stmt *statement, int column);
const unsigned char *rizq_sqlite3_column_text(sqlite3_stmt *statement, int column);
const void *rizq_sqlite3_column_blob(sqlite3_stmt *statement, int column);
int rizq_sqlite3_column_bytes(sqlite3_stmt *statement, int column);

/* snappy: only after rizq_snappy_load returned true. */
snappy_status rizq_snappy_uncompressed_length(const char *compressed, size_t compressed_length, size_t *result);
snappy_status rizq_snappy_uncompress(const char *compressed, size_t compressed_length, char *uncompressed, size_t *uncompressed_length);

#endif
