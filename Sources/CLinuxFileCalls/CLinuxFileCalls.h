// The Linux file calls that Swift's Glibc module leaves out: renameat2 (declared by <stdio.h>
// only under _GNU_SOURCE), sync_file_range (<fcntl.h>, the same), the extended-attribute calls (<sys/xattr.h>, which the module
// does not include) and statfs (<sys/vfs.h>: which file system a folder is on). Declarations only: glibc has had them since 2.28 and 2.3; nothing here is
// compiled or linked beyond libc itself; O_PATH, a flag <fcntl.h> defines only under _GNU_SOURCE. RizqPrefs uses them in Backend/LinuxFileCalls.swift.
#ifndef C_LINUX_FILE_CALLS_H
#define C_LINUX_FILE_CALLS_H
#if defined(__linux__)
#include <sys/types.h>
#include <sys/xattr.h>
#include <sys/vfs.h>

/// renameat2(2): rename with flags (RENAME_NOREPLACE = 1, RENAME_EXCHANGE = 2, from <linux/fs.h>).
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/// sync_file_range(2) (<fcntl.h>, only under _GNU_SOURCE): start or wait for the write-back of
/// a range of a file (SYNC_FILE_RANGE_WRITE = 2). Not a durability call: an fsync still follows.
int sync_file_range(int fd, __off64_t offset, __off64_t nbytes, unsigned int flags);

/// O_PATH (<fcntl.h>, only under _GNU_SOURCE): a descriptor that names a folder without opening
/// it for reading, for a walk of openat(2) steps (RizqCore's TrustedPath). The same value on every
/// Linux architecture but SPARC, Alpha and PA-RISC, where Swift does not run.
static const int rizq_O_PATH = 010000000;

#endif
#endif
