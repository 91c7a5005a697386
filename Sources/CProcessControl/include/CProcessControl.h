// prctl(2), which Swift cannot call (glibc's prctl() is variadic), and the two posix_spawn file
// actions glibc adds as GNU extensions, which Swift's Glibc module leaves out. One-line wrappers,
// no meaning here: that is Swift's (ProcessMemory and KeySourceCommand in RizqSecrets).
#ifndef RIZQ_PROCESS_CONTROL_H
#define RIZQ_PROCESS_CONTROL_H

#include <spawn.h>

/// PR_SET_DUMPABLE: 0 makes this process undumpable (no core dump, no ptrace attach by another
/// process of the same user, /proc/PID files owned by root) until exec. Returns 0 or -1 (errno).
int rizq_set_dumpable(int dumpable);
/// PR_GET_DUMPABLE: 1 when dumpable, 0 when not; -1 with errno on failure.
int rizq_get_dumpable(void);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
/// `from` up before it runs the program. Returns 0 or an error number.
int rizq_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from);
/// posix_spawn_file_actions_addtcsetpgrp_np (glibc 2.35): the child makes its process group the
/// foreground group of the terminal `descriptor`. Returns 0 or an error number.
int rizq_spawn_add_foreground(posix_spawn_file_actions_t *actions, int descriptor);

#endif
