#ifndef RIZQ_CSECRETSHIM_H
#define RIZQ_CSECRETSHIM_H

/*
 * A small, boring C layer over libsecret's non-variadic service API, for RizqSecrets.
 * No GLib types cross this header: strings are UTF-8 C strings, secrets are byte buffers,
 * every failure is a kind (below) plus libsecret's or GLib's message. Meaning lives in Swift.
 * Secrets never appear in messages, attributes or labels.
 * Not thread-safe: call from one thread at a time (RizqSecrets uses one serial worker).
 */

#include <stddef.h>

/* What went wrong, coarsely; RizqSecrets turns these into SecretError. */
enum {
    RIZQ_SECRET_OK = 0,
    RIZQ_SECRET_NOT_FOUND = 1,      /* no matching item */
    RIZQ_SECRET_NO_BUS = 2,         /* no D-Bus session bus */
    RIZQ_SECRET_NO_SERVICE = 3,     /* nothing owns org.freedesktop.secrets */
    RIZQ_SECRET_LOCKED = 4,         /* the item or collection is locked and no prompt was allowed */
    RIZQ_SECRET_DISMISSED = 5,      /* the unlock prompt was dismissed (or could not be shown) */
    RIZQ_SECRET_TIMED_OUT = 6,      /* the service did not answer */
    RIZQ_SECRET_INVALID = 7,        /* bad input: an empty service, or a service or account not UTF-8 */
    RIZQ_SECRET_DISCONNECTED = 8,   /* the connection went away (e.g. daemon restart): reconnect */
    RIZQ_SECRET_NO_COLLECTION = 9,  /* no collection under the alias (no default keyring) */
    RIZQ_SECRET_FAILED = 10         /* anything else; see the message */
};

typedef struct rizq_secret_error {
    int kind;
    int code;              /* the GError code, for diagnostics */
    char message[512];     /* the GError message, never holding a secret */
} rizq_secret_error;

/* A secret held in libsecret's secure memory; read it, then release it. */
typedef struct rizq_secret_value rizq_secret_value;

/* Connects to the Secret Service (kept open across calls) and opens a session. */
int rizq_secret_connect(rizq_secret_error *error);

/* Drops the connection and the remembered item paths; the next call connects again. */
void rizq_secret_disconnect(void);

/*
 * Stores `length` bytes for (service, account): replaces the secret of an existing item with
 * those attributes (whoever created it), else creates one in the collection with `alias`
 * ("default" or "session"). `binary` selects application/octet-stream over text/plain.
 * `allow_prompt` lets the service prompt to unlock a locked collection.
 */
int rizq_secret_store(const char *schema_name, const char *service, const char *account, const char *label,
                      const void *bytes, size_t length, int binary, const char *alias, int allow_prompt,
                      rizq_secret_error *error);

/*
 * Finds the secret of (service, account); RIZQ_SECRET_NOT_FOUND when there is none. Remembers the
 * item's D-Bus path (never its secret), so that reading it again asks the service for the secret
 * at that path in one round trip, as long as the service has signalled no change since; anything
 * else takes the full search. Either way the result is the same.
 */
int rizq_secret_lookup(const char *service, const char *account, int allow_prompt,
                       rizq_secret_value **value, rizq_secret_error *error);

/* The bytes of a looked-up secret, valid until it is released. */
const void *rizq_secret_value_bytes(rizq_secret_value *value, size_t *length);

/* Releases a looked-up secret with libsecret's own secure free. */
void rizq_secret_value_release(rizq_secret_value *value);

/* Deletes every item of (service, account); RIZQ_SECRET_NOT_FOUND when there is none. */
int rizq_secret_delete(const char *service, const char *account, int allow_prompt, rizq_secret_error *error);

/* The accounts that have items for `service` (names only). Free with rizq_secret_list_free. */
int rizq_secret_list(const char *service, char ***accounts, size_t *count, rizq_secret_error *error);
void rizq_secret_list_free(char **accounts, size_t count);

/* Whether the collection with `alias` exists and is locked. */
int rizq_secret_collection_status(const char *alias, int *exists, int *locked, rizq_secret_error *error);

/* Locks or unlocks (unlock may prompt) the collection with `alias`: for tools and tests. */
int rizq_secret_collection_set_locked(const char *alias, int locked, rizq_secret_error *error);

#endif
