#ifndef RIZQ_CSECRETSHIM_H
#define RIZQ_CSECRETSHIM_H

/*
 * One C function per Secret Service operation on D-Bus, each saying what the service answered and
 * deciding nothing: which calls to make and what their answers mean (replace or create, listing,
 * locked, prompts) is RizqSecrets' Swift (Store/SecretServicePolicy.swift). Each takes the time-out
 * of its D-Bus round trip. No GLib type crosses this header: strings are UTF-8, secrets byte
 * buffers, a GError its names and message. Strings and NULL-terminated lists of strings returned
 * here are the caller's, to release with free(); out-parameters hold an answer on RIZQ_SECRET_OK only.
 * Not thread-safe: one thread at a time (RizqSecrets' worker), and every call but the first two
 * only while connected (after rizq_secret_connect succeeded, before rizq_secret_disconnect).
 *
 * libsecret is not linked: rizq_secret_connect opens libsecret-1.so.0 with dlopen the first time and
 * looks up, once, the few functions of libsecret, GLib and GIO the shim calls. A program that makes
 * no secret call never maps them, and one on a machine without libsecret gets RIZQ_SECRET_NO_LIBRARY.
 * CSecretShim.c declares those functions itself instead of including <libsecret/secret.h>: the
 * headers' folders would come from pkg-config (a system-library target), and SwiftPM then links
 * libsecret and GLib into every program that depends on RizqSecrets; without pkg-config they could
 * only be given as unsafeFlags, which SwiftPM refuses in a dependency. The declarations are few and
 * stable (GLib 2 and libsecret-1 keep their ABI under their sonames; every type but GError's three
 * public fields is used through pointers), dlsym checks each name, and building needs no -dev package.
 */

#include <stdbool.h>
#include <stddef.h>

/* What a call reports. */
typedef enum rizq_secret_status {
    RIZQ_SECRET_OK = 0,         /* done; the out-parameters hold the answer */
    RIZQ_SECRET_FAILED = 1,     /* GLib or the service reported an error: in rizq_secret_error */
    RIZQ_SECRET_NO_LIBRARY = 2, /* libsecret-1.so.0 could not be opened; the message is dlerror()'s */
    RIZQ_SECRET_NO_SYMBOL = 3,  /* it lacks a function the shim calls; the message names it */
    RIZQ_SECRET_NO_SESSION = 4  /* connected, but opening the encrypted session failed: in rizq_secret_error */
} rizq_secret_status;

/* A GError, in GLib-free terms (or the loader's message). */
typedef struct rizq_secret_error {
    char domain[64];      /* the error domain's name: "g-dbus-error-quark", "g-io-error-quark", "secret-error" */
    int code;             /* the GError code in that domain */
    char dbus_name[256];  /* the D-Bus error name the service replied with; "" for a local error */
    char message[512];    /* GLib's message, never holding a secret */
} rizq_secret_error;

/* A secret in libsecret's secure memory, until released. */
typedef struct rizq_secret_value rizq_secret_value;

/* Loads libsecret (once per process); then, unless connected: pings the service, makes libsecret's
 * proxy, opens an encrypted session, and (once per process) starts counting the service's signals. */
rizq_secret_status rizq_secret_connect(int timeout_ms, rizq_secret_error *error);
/* Drops libsecret's proxy and session. */
void rizq_secret_disconnect(void);
/* The count of D-Bus signals received so far (the service's, through match rules); false when they
 * are not being counted. Why this is enough to trust a remembered item path: Shim/SecretPathCache.swift. */
bool rizq_secret_changes(unsigned *count);

/* Service.SearchItems: the items whose attributes include `attributes` (name, value, …). */
rizq_secret_status rizq_secret_search(const char *const *attributes, int timeout_ms, char ***unlocked, char ***locked,
                                      rizq_secret_error *error);
/* Service.GetSecrets of one item: *value and its bytes, or NULL when the service gave none (locked). */
rizq_secret_status rizq_secret_get_secret(const char *item, int timeout_ms, rizq_secret_value **value, const void **bytes,
                                          size_t *length, rizq_secret_error *error);
void rizq_secret_value_release(rizq_secret_value *value);
/* Item.SetSecret; `binary`: application/octet-stream, else text/plain. */
rizq_secret_status rizq_secret_set_secret(const char *item, const void *bytes, size_t length, bool binary, int timeout_ms,
                                          rizq_secret_error *error);
/* Properties.Set of the item's Label. */
rizq_secret_status rizq_secret_set_label(const char *item, const char *label, int timeout_ms, rizq_secret_error *error);
/* Properties.Get of the item's Attributes: the one called `name` (not written if it has none). */
rizq_secret_status rizq_secret_item_attribute(const char *item, const char *name, int timeout_ms, char **value,
                                              rizq_secret_error *error);
/* Collection.CreateItem; `replace`: the service replaces an item with exactly these attributes; *prompt
 * is "/" when no prompt is needed. */
rizq_secret_status rizq_secret_create_item(const char *collection, const char *const *attributes, const char *label,
                                           const void *bytes, size_t length, bool binary, bool replace, int timeout_ms,
                                           char **item, char **prompt, rizq_secret_error *error);
/* Item.Delete; *prompt as above. */
rizq_secret_status rizq_secret_delete(const char *item, int timeout_ms, char **prompt, rizq_secret_error *error);
/* Service.ReadAlias: the collection's path, "/" when no collection has the alias. */
rizq_secret_status rizq_secret_read_alias(const char *alias, int timeout_ms, char **collection, rizq_secret_error *error);
/* Properties.Get of the collection's Locked. */
rizq_secret_status rizq_secret_collection_locked(const char *collection, int timeout_ms, bool *locked,
                                                rizq_secret_error *error);
/* Service.Lock or Service.Unlock of items or collections: those done at once, and a prompt ("/": none). */
rizq_secret_status rizq_secret_set_locked(const char *const *objects, bool lock, int timeout_ms, char ***done, char **prompt,
                                          rizq_secret_error *error);
/* Prompt.Prompt, then its Completed signal: the objects its result names when that is a list of
 * them (an Unlock's or a Lock's: those done), else NULL. libsecret does not pass on whether the
 * prompt was dismissed: an unlock prompt that unlocked nothing was. */
rizq_secret_status rizq_secret_prompt(const char *prompt, int timeout_ms, char ***objects, rizq_secret_error *error);

/* The Secret portal's calls (SecretPortal.c), in this module too. */
#include "RizqSecretPortal.h"

#endif
