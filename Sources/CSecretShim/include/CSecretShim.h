#ifndef RIZQ_CSECRETSHIM_H
#define RIZQ_CSECRETSHIM_H

/*
 * The C that RizqSecrets cannot do without, over libsecret's non-variadic service API: GLib
 * objects and GErrors, the schema literal, libsecret's secure free, and a GDBus filter that
 * counts the Secret Service's change signals. No GLib type crosses this header: strings are
 * UTF-8 C strings, secrets are byte buffers, a GError arrives as its names and message.
 * Meaning lives in Swift: RizqSecrets sorts failures (SecretServiceFailure), checks input
 * (SecretInput) and keeps the lookup cache (SecretPathCache). Secrets never appear in
 * messages, attributes or labels.
 * Not thread-safe: call from one thread at a time (RizqSecrets uses one serial worker).
 */

#include <stddef.h>

/* What a call found, when it is not a GLib error. */
enum {
    RIZQ_SECRET_OK = 0,
    RIZQ_SECRET_NOT_FOUND = 1,      /* no matching item */
    RIZQ_SECRET_LOCKED = 2,         /* the item or collection is locked and no prompt was allowed */
    RIZQ_SECRET_DISMISSED = 3,      /* the unlock prompt was dismissed (or could not be shown) */
    RIZQ_SECRET_NO_COLLECTION = 4,  /* no collection under the alias (no default keyring) */
    RIZQ_SECRET_ERROR = 5           /* GLib reported an error: see rizq_secret_error */
};

/* A GError, in GLib-free terms. */
typedef struct rizq_secret_error {
    char domain[64];       /* the error domain's name: "g-dbus-error-quark", "g-io-error-quark", "secret-error" */
    int code;              /* the GError code */
    char code_name[64];    /* the code's GLib nickname ("no-reply", "timed-out", "is-locked"); "" when unknown */
    char dbus_name[256];   /* the D-Bus error name the service replied with; "" for a local error */
    char message[512];     /* the GError message, never holding a secret */
} rizq_secret_error;

/* A secret held in libsecret's secure memory; read it, then release it. */
typedef struct rizq_secret_value rizq_secret_value;

/* Connects to the Secret Service (kept open across calls), opens a session, and starts counting
 * its change signals (rizq_secret_changes). */
int rizq_secret_connect(rizq_secret_error *error);

/* Drops the connection; the next call connects again. */
void rizq_secret_disconnect(void);

/* How long each D-Bus call to the service may take from the next call on, in milliseconds
 * (-1: GDBus's default, 25 s). */
void rizq_secret_set_timeout(int milliseconds);

/* The number of signals seen so far from the Secret Service (items created, changed or deleted,
 * collections changed, the service's bus name changing owner), into *count; returns 0 when they
 * are not being counted (nothing may then be cached). */
int rizq_secret_changes(unsigned *count);

/* The D-Bus paths of the items of (service, account), unlocked and locked: one SearchItems call.
 * Free both with rizq_secret_paths_free. */
int rizq_secret_search_paths(const char *service, const char *account, char ***unlocked, char ***locked,
                             rizq_secret_error *error);
void rizq_secret_paths_free(char **paths);

/* Unlocks the items at `paths` (NULL-terminated) by prompting; RIZQ_SECRET_DISMISSED when none was. */
int rizq_secret_unlock_paths(char **paths, rizq_secret_error *error);

/* The secret of the item at `path`: one GetSecrets call. RIZQ_SECRET_LOCKED when the service
 * gives no secret for it. */
int rizq_secret_read_path(const char *path, rizq_secret_value **value, rizq_secret_error *error);

/* The bytes of a secret, valid until it is released. */
const void *rizq_secret_value_bytes(rizq_secret_value *value, size_t *length);

/* Releases a secret (not NULL) with libsecret's own secure free. */
void rizq_secret_value_release(rizq_secret_value *value);

/*
 * Stores `length` bytes for (service, account): replaces the secret of an existing item with
 * those attributes (whoever created it), else creates one in the collection with `alias`
 * ("default" or "session") under the schema `schema_name`. `binary` selects
 * application/octet-stream over text/plain. `allow_prompt` lets the service prompt to unlock.
 */
int rizq_secret_store(const char *schema_name, const char *service, const char *account, const char *label,
                      const void *bytes, size_t length, int binary, const char *alias, int allow_prompt,
                      rizq_secret_error *error);

/* Deletes the item at `path`. */
int rizq_secret_delete_path(const char *path, rizq_secret_error *error);

/* The accounts that have items for `service` (names only): `count` strings and the array, each
 * from malloc; free them with free(). */
int rizq_secret_list(const char *service, char ***accounts, size_t *count, rizq_secret_error *error);

/* Whether the collection with `alias` exists and is locked. */
int rizq_secret_collection_status(const char *alias, int *exists, int *locked, rizq_secret_error *error);

/* Locks or unlocks (unlock may prompt) the collection with `alias`: for tools and tests. */
int rizq_secret_collection_set_locked(const char *alias, int locked, rizq_secret_error *error);

#endif
