// LevelDB's C API, from Debian's libleveldb-dev (it ships no pkg-config file).
#include <leveldb/c.h>
