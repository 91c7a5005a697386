// The Linux kernel key-retention calls the vault's identity cache needs. glibc's keyctl() and
// syscall() are variadic, which Swift cannot call, and libkeyutils would be one more Debian
// build dependency; these are one-line wrappers over syscall(2). Each returns what the system
// call returns (-1 with errno set on failure). No meaning here: that is Swift's (KernelKeyring).
#ifndef RIZQ_KERNEL_KEYRING_H
#define RIZQ_KERNEL_KEYRING_H

#include <stddef.h>
#include <stdint.h>

// Special keyring ids (linux/keyctl.h).
#define RIZQ_KEY_SPEC_PROCESS_KEYRING -2
#define RIZQ_KEY_SPEC_SESSION_KEYRING -3
#define RIZQ_KEY_SPEC_USER_KEYRING -4

// Permission bits (keyrings(7)): possessor and user (owner) classes.
#define RIZQ_KEY_POS_VIEW 0x01000000u
#define RIZQ_KEY_POS_READ 0x02000000u
#define RIZQ_KEY_POS_WRITE 0x04000000u
#define RIZQ_KEY_POS_SEARCH 0x08000000u
#define RIZQ_KEY_POS_LINK 0x10000000u
#define RIZQ_KEY_POS_SETATTR 0x20000000u
#define RIZQ_KEY_USR_VIEW 0x00010000u
#define RIZQ_KEY_USR_READ 0x00020000u
#define RIZQ_KEY_USR_SEARCH 0x00080000u

/// add_key(2): a key of `type` with `description` and `payload`, linked into `keyring`.
int32_t rizq_add_key(const char *type, const char *description, const void *payload, size_t length, int32_t keyring);
/// KEYCTL_SEARCH: the key of `type` and `description` reachable from `keyring` (0: link nowhere).
int32_t rizq_keyctl_search(int32_t keyring, const char *type, const char *description, int32_t destination);
/// KEYCTL_READ: copies up to `length` bytes of the payload; returns the payload's full size.
long rizq_keyctl_read(int32_t key, void *buffer, size_t length);
/// KEYCTL_SETPERM.
long rizq_keyctl_setperm(int32_t key, uint32_t permissions);
/// KEYCTL_SET_TIMEOUT: the key expires `seconds` from now (0: never).
long rizq_keyctl_set_timeout(int32_t key, uint32_t seconds);
/// KEYCTL_INVALIDATE: the key is gone at once for everyone.
long rizq_keyctl_invalidate(int32_t key);
/// KEYCTL_GET_PERSISTENT: the persistent keyring of `uid` (-1: the caller's), linked into `destination`.
long rizq_keyctl_get_persistent(int32_t uid, int32_t destination);
/// KEYCTL_GET_KEYRING_ID: the serial of a special keyring (`create`: make it if missing).
long rizq_keyctl_get_keyring_id(int32_t keyring, int create);

#endif
