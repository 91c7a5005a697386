#include "CKernelKeyring.h"

#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int32_t rizq_add_key(const char *type, const char *description, const void *payload, size_t length, int32_t keyring) {
    return (int32_t)syscall(SYS_add_key, type, description, payload, length, keyring);
}

int32_t rizq_keyctl_search(int32_t keyring, const char *type, const char *description, int32_t destination) {
    return (int32_t)syscall(SYS_keyctl, KEYCTL_SEARCH, keyring, type, description, destination);
}

long rizq_keyctl_read(int32_t key, void *buffer, size_t length) {
    return syscall(SYS_keyctl, KEYCTL_READ, key, buffer, length);
}

long rizq_keyctl_setperm(int32_t key, uint32_t permissions) {
    return syscall(SYS_keyctl, KEYCTL_SETPERM, key, permissions);
}

long rizq_keyctl_set_timeout(int32_t key, uint32_t seconds) {
    return syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, seconds);
}

long rizq_keyctl_invalidate(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_INVALIDATE, key);
}

long rizq_keyctl_get_persistent(int32_t uid, int32_t destination) {
    return syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, uid, destination);
}

long rizq_keyctl_get_keyring_id(int32_t keyring, int create) {
    return syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, keyring, create);
}
