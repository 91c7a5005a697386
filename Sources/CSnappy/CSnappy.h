// snappy's C API (snappy-c.h), from Debian's libsnappy-dev.
#include <snappy-c.h>
