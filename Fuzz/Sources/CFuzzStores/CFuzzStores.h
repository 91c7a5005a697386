// The C APIs the profile targets write their inputs with, the libraries the readers read with:
// LevelDB (Debian's libleveldb-dev), SQLite (libsqlite3-dev) and snappy (libsnappy-dev).
#include <leveldb/c.h>
#include <snappy-c.h>
#include <sqlite3.h>
