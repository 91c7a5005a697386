// An LD_PRELOAD shim for the file-system matrix (scripts/test-filesystems): every extended-
// attribute call of libc fails with ENOTSUP, as on a file system that keeps no user attributes
// (ramfs, tmpfs before Linux 6.6, NFSv3, vfat, most FUSE). Unlike scripts/seccomp-deny, which
// fails the system calls themselves, this replaces the library functions, as an interposing
// library (a sandbox, a FUSE helper) would: the two together cover both ways a program reaches
// them.
//
//   cc -shared -fPIC -O2 -o libxattr-enotsup.so scripts/shims/xattr-enotsup.c
//   LD_PRELOAD=$PWD/libxattr-enotsup.so COMMAND
#include <errno.h>
#include <sys/types.h>
#include <sys/xattr.h>

#define FAIL do { errno = ENOTSUP; return -1; } while (0)

int setxattr(const char *path, const char *name, const void *value, size_t size, int flags) { (void)path; (void)name; (void)value; (void)size; (void)flags; FAIL; }
int lsetxattr(const char *path, const char *name, const void *value, size_t size, int flags) { (void)path; (void)name; (void)value; (void)size; (void)flags; FAIL; }
int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags) { (void)fd; (void)name; (void)value; (void)size; (void)flags; FAIL; }
ssize_t getxattr(const char *path, const char *name, void *value, size_t size) { (void)path; (void)name; (void)value; (void)size; FAIL; }
ssize_t lgetxattr(const char *path, const char *name, void *value, size_t size) { (void)path; (void)name; (void)value; (void)size; FAIL; }
ssize_t fgetxattr(int fd, const char *name, void *value, size_t size) { (void)fd; (void)name; (void)value; (void)size; FAIL; }
ssize_t listxattr(const char *path, char *list, size_t size) { (void)path; (void)list; (void)size; FAIL; }
ssize_t llistxattr(const char *path, char *list, size_t size) { (void)path; (void)list; (void)size; FAIL; }
ssize_t flistxattr(int fd, char *list, size_t size) { (void)fd; (void)list; (void)size; FAIL; }
int removexattr(const char *path, const char *name) { (void)path; (void)name; FAIL; }
int lremovexattr(const char *path, const char *name) { (void)path; (void)name; FAIL; }
int fremovexattr(int fd, const char *name) { (void)fd; (void)name; FAIL; }
