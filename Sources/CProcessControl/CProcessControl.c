#define _GNU_SOURCE
#include "CProcessControl.h"

#include <sys/prctl.h>

int rizq_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

int rizq_get_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

int rizq_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int rizq_spawn_add_foreground(posix_spawn_file_actions_t *actions, int descriptor) {
    return posix_spawn_file_actions_addtcsetpgrp_np(actions, descriptor);
}
