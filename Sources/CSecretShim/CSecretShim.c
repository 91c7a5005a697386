#include "CSecretShim.h"

/* For the D-Bus path calls (secret-paths.h) that reads use: libsecret marks them "subject to
 * change", but they have been unchanged since libsecret 0.7, and a change would fail the build
 * here, never silently. */
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
#include <stdlib.h>
#include <string.h>

static SecretService *shared_service = NULL;

/*
 * The lookup cache: (service, account) -> the D-Bus path of the item a full lookup last read,
 * so that the next lookup is one round trip (GetSecrets at that path) instead of two. Paths
 * only, never secrets: every read asks the service for the value.
 *
 * A path can come to mean another item (gnome-keyring hands a deleted item's number to a new
 * item after a restart; another process may change an item's attributes in place), so an entry
 * is trusted only while the Secret Service has sent no signal since the search that made it:
 * a GDBus filter counts every signal under /org/freedesktop/secrets, and every change of owner
 * of org.freedesktop.secrets, in `signals`. The service signals a change (ItemCreated,
 * ItemChanged, ItemDeleted, CollectionChanged…) as it makes it, before it answers any later
 * call; the bus keeps one sender's messages in order; GDBus runs filters on its reader thread in
 * that order, before it hands over a reply. So once GetSecrets has returned, `signals` counts
 * every change the service made before it answered. Anything unexpected (no value, an error, a
 * signal) falls back to the full lookup.
 */
typedef struct cached_path {
    gchar *path;
    gint signals; /* `signals` before the search that found `path` */
} cached_path;

enum { CACHE_LIMIT = 64 };

static GHashTable *cache = NULL;          /* key: see cache_key() */
static GDBusConnection *watched = NULL;   /* the connection the filter and match rules are on */
static guint filter_id = 0;
static gint signals = 0;                  /* written by the filter's thread: atomic */

static const char *const match_rules[] = {
    "type='signal',path_namespace='/org/freedesktop/secrets'",
    "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.secrets'",
};

static int set_error(rizq_secret_error *error, int kind, int code, const char *message) {
    if (error) {
        error->kind = kind;
        error->code = code;
        g_strlcpy(error->message, message ? message : "", sizeof(error->message));
    }
    return kind;
}

/* Sorts a GError into a kind, copies its message, and frees it. */
static int take_error(GError *gerror, rizq_secret_error *error) {
    int kind = RIZQ_SECRET_FAILED;
    if (gerror == NULL) {
        return set_error(error, kind, 0, "the Secret Service failed without saying why");
    }
    if (g_dbus_error_is_remote_error(gerror)) {
        gchar *name = g_dbus_error_get_remote_error(gerror);
        if (name) {
            if (strcmp(name, "org.freedesktop.DBus.Error.ServiceUnknown") == 0 ||
                strcmp(name, "org.freedesktop.DBus.Error.NameHasNoOwner") == 0) {
                kind = RIZQ_SECRET_NO_SERVICE;
            } else if (strcmp(name, "org.freedesktop.Secret.Error.IsLocked") == 0) {
                kind = RIZQ_SECRET_LOCKED;
            } else if (strcmp(name, "org.freedesktop.Secret.Error.NoSuchObject") == 0 ||
                       strcmp(name, "org.freedesktop.DBus.Error.UnknownObject") == 0 ||
                       strcmp(name, "org.freedesktop.DBus.Error.UnknownMethod") == 0) {
                kind = RIZQ_SECRET_DISCONNECTED;
            } else if (strcmp(name, "org.freedesktop.DBus.Error.NoReply") == 0 ||
                       strcmp(name, "org.freedesktop.DBus.Error.Timeout") == 0 ||
                       strcmp(name, "org.freedesktop.DBus.Error.TimedOut") == 0) {
                kind = RIZQ_SECRET_TIMED_OUT;
            }
            g_free(name);
        }
    } else if (gerror->domain == g_dbus_error_quark()) {
        switch (gerror->code) {
        case G_DBUS_ERROR_SERVICE_UNKNOWN:
        case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
            kind = RIZQ_SECRET_NO_SERVICE;
            break;
        case G_DBUS_ERROR_NO_SERVER:
        case G_DBUS_ERROR_BAD_ADDRESS:
        case G_DBUS_ERROR_FILE_NOT_FOUND:
            kind = RIZQ_SECRET_NO_BUS;
            break;
        case G_DBUS_ERROR_NO_REPLY:
        case G_DBUS_ERROR_TIMEOUT:
        case G_DBUS_ERROR_TIMED_OUT:
            kind = RIZQ_SECRET_TIMED_OUT;
            break;
        case G_DBUS_ERROR_DISCONNECTED:
        case G_DBUS_ERROR_UNKNOWN_OBJECT:
        case G_DBUS_ERROR_UNKNOWN_METHOD:
            kind = RIZQ_SECRET_DISCONNECTED;
            break;
        default:
            break;
        }
    } else if (gerror->domain == g_io_error_quark()) {
        switch (gerror->code) {
        case G_IO_ERROR_TIMED_OUT:
            kind = RIZQ_SECRET_TIMED_OUT;
            break;
        case G_IO_ERROR_CANCELLED:
            kind = RIZQ_SECRET_DISMISSED;
            break;
        case G_IO_ERROR_CLOSED:
        case G_IO_ERROR_BROKEN_PIPE:
            kind = RIZQ_SECRET_DISCONNECTED;
            break;
        case G_IO_ERROR_NOT_FOUND:
        case G_IO_ERROR_CONNECTION_REFUSED:
        case G_IO_ERROR_INVALID_ARGUMENT:
        case G_IO_ERROR_NOT_SUPPORTED:
            kind = RIZQ_SECRET_NO_BUS;
            break;
        case G_IO_ERROR_FAILED:
            /* g_bus_get() without a session bus: "Cannot autolaunch D-Bus without X11 $DISPLAY". */
            if (strstr(gerror->message, "D-Bus") || strstr(gerror->message, "autolaunch") ||
                strstr(gerror->message, "DBUS_SESSION_BUS_ADDRESS")) {
                kind = RIZQ_SECRET_NO_BUS;
            }
            break;
        default:
            break;
        }
    } else if (gerror->domain == secret_error_get_quark()) {
        switch (gerror->code) {
        case SECRET_ERROR_IS_LOCKED:
            kind = RIZQ_SECRET_LOCKED;
            break;
        case SECRET_ERROR_NO_SUCH_OBJECT:
            kind = RIZQ_SECRET_DISCONNECTED;
            break;
        default:
            break;
        }
    }
    set_error(error, kind, gerror->code, gerror->message);
    g_error_free(gerror);
    return kind;
}

static int valid_attribute(const char *text) {
    return text != NULL && text[0] != '\0' && g_utf8_validate(text, -1, NULL);
}

/* An account may be empty, as for secret-tool and Python's keyring: it is still an attribute. */
static int valid_account(const char *text) {
    return text != NULL && g_utf8_validate(text, -1, NULL);
}

/* Counts the signals that may change what a path means; passes every message on unchanged. */
static GDBusMessage *count_signals(GDBusConnection *connection, GDBusMessage *message, gboolean incoming,
                                   gpointer user_data) {
    (void) connection;
    (void) user_data;
    if (incoming && g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_SIGNAL) {
        const gchar *path = g_dbus_message_get_path(message);
        const gchar *member = g_dbus_message_get_member(message);
        if ((path != NULL && g_str_has_prefix(path, "/org/freedesktop/secrets")) ||
            (g_strcmp0(member, "NameOwnerChanged") == 0 &&
             g_strcmp0(g_dbus_message_get_arg0(message), "org.freedesktop.secrets") == 0)) {
            g_atomic_int_inc(&signals);
        }
    }
    return message;
}

static void free_cached_path(gpointer data) {
    cached_path *entry = data;
    g_free(entry->path);
    g_free(entry);
}

/* Unambiguous: the service's length first, since either part may hold any character. */
static gchar *cache_key(const char *service, const char *account) {
    return g_strdup_printf("%zu:%s:%s", strlen(service), service, account);
}

static void forget_path(const char *service, const char *account) {
    if (cache != NULL) {
        gchar *key = cache_key(service, account);
        g_hash_table_remove(cache, key);
        g_free(key);
    }
}

static void remember_path(const char *service, const char *account, const gchar *path, gint signals_before) {
    if (cache == NULL) {
        return;
    }
    if (g_hash_table_size(cache) >= CACHE_LIMIT) {
        g_hash_table_remove_all(cache);
    }
    cached_path *entry = g_new(cached_path, 1);
    entry->path = g_strdup(path);
    entry->signals = signals_before;
    g_hash_table_replace(cache, cache_key(service, account), entry);
}

/* Removes the first `count` match rules; no reply wanted, so nothing waits on the bus. */
static void remove_matches(GDBusConnection *connection, size_t count) {
    for (size_t index = 0; index < count; index++) {
        g_dbus_connection_call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "RemoveMatch", g_variant_new("(s)", match_rules[index]), NULL,
                               G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL, NULL);
    }
}

/* Subscribes to the signals above; without them nothing is cached (every read is a full one).
 * The match rules are in place on the bus before any later call of ours reaches the service. */
static void start_cache(void) {
    GDBusConnection *connection = g_dbus_proxy_get_connection(G_DBUS_PROXY(shared_service));
    for (size_t index = 0; index < G_N_ELEMENTS(match_rules); index++) {
        GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "AddMatch",
                                                      g_variant_new("(s)", match_rules[index]), NULL,
                                                      G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
        if (reply == NULL) {
            remove_matches(connection, index);
            return;
        }
        g_variant_unref(reply);
    }
    watched = g_object_ref(connection);
    filter_id = g_dbus_connection_add_filter(watched, count_signals, NULL, NULL);
    cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free_cached_path);
}

static void stop_cache(void) {
    if (cache != NULL) {
        g_hash_table_destroy(cache);
        cache = NULL;
    }
    if (watched != NULL) {
        g_dbus_connection_remove_filter(watched, filter_id);
        remove_matches(watched, G_N_ELEMENTS(match_rules));
        g_clear_object(&watched);
        filter_id = 0;
    }
}

/* The secret at the remembered path, if the service gives one and nothing has changed since the
 * path was found; else NULL, with the entry dropped. One round trip. */
static SecretValue *read_remembered(const char *service, const char *account) {
    if (cache == NULL) {
        return NULL;
    }
    gchar *key = cache_key(service, account);
    cached_path *entry = g_hash_table_lookup(cache, key);
    SecretValue *secret = NULL;
    if (entry != NULL && entry->signals == g_atomic_int_get(&signals)) {
        /* Missing and locked items come back as no value and no error; any error means the same
         * here: ask again the long way, which tells them apart. */
        secret = secret_service_get_secret_for_dbus_path_sync(shared_service, entry->path, NULL, NULL);
        if (secret != NULL && entry->signals != g_atomic_int_get(&signals)) {
            secret_value_unref(secret);
            secret = NULL;
        }
    }
    if (secret == NULL && entry != NULL) {
        g_hash_table_remove(cache, key);
    }
    g_free(key);
    return secret;
}

int rizq_secret_connect(rizq_secret_error *error) {
    if (shared_service != NULL) {
        return RIZQ_SECRET_OK;
    }
    GError *gerror = NULL;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &gerror);
    if (service == NULL) {
        return take_error(gerror, error);
    }
    shared_service = service;
    start_cache();
    return RIZQ_SECRET_OK;
}

void rizq_secret_disconnect(void) {
    stop_cache();
    if (shared_service != NULL) {
        g_object_unref(shared_service);
        shared_service = NULL;
    }
    secret_service_disconnect();
}

/* The attributes of (service, account), or of every item of `service` when `account` is NULL.
 * The table borrows the strings: unref it before they go. */
static GHashTable *attributes_for(const char *service, const char *account) {
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(attributes, (gpointer) "service", (gpointer) service);
    if (account != NULL) {
        g_hash_table_insert(attributes, (gpointer) "account", (gpointer) account);
    }
    return attributes;
}

/* Items with these attributes, whatever their schema (so items made by secret-tool match). */
static int search(const char *service, const char *account, GList **items, rizq_secret_error *error) {
    GHashTable *attributes = attributes_for(service, account);
    GError *gerror = NULL;
    *items = secret_service_search_sync(shared_service, NULL, attributes, SECRET_SEARCH_ALL, NULL, &gerror);
    g_hash_table_unref(attributes);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    return RIZQ_SECRET_OK;
}

static void free_items(GList *items) {
    g_list_free_full(items, g_object_unref);
}

/* Unlocks `objects` (items or collections) by prompting; DISMISSED when nothing was unlocked. */
static int unlock_by_prompt(GList *objects, rizq_secret_error *error) {
    GError *gerror = NULL;
    GList *unlocked = NULL;
    gint count = secret_service_unlock_sync(shared_service, objects, NULL, &unlocked, &gerror);
    g_list_free_full(unlocked, g_object_unref);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    if (count <= 0) {
        return set_error(error, RIZQ_SECRET_DISMISSED, 0, "the unlock prompt was dismissed");
    }
    return RIZQ_SECRET_OK;
}

/* The D-Bus paths of the items with these attributes, unlocked and locked: one SearchItems call.
 * Reads use this rather than search(): the SecretItem objects that search() builds cost six more
 * round trips each (their properties, and signal matches added and removed on the bus). */
static int search_paths(const char *service, const char *account, gchar ***unlocked, gchar ***locked,
                        rizq_secret_error *error) {
    GHashTable *attributes = attributes_for(service, account);
    GError *gerror = NULL;
    secret_service_search_for_dbus_paths_sync(shared_service, NULL, attributes, NULL, unlocked, locked, &gerror);
    g_hash_table_unref(attributes);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    return RIZQ_SECRET_OK;
}

/* Unlocks the items at `paths` by prompting; DISMISSED when nothing was unlocked. */
static int unlock_paths_by_prompt(gchar **paths, rizq_secret_error *error) {
    GError *gerror = NULL;
    gchar **unlocked = NULL;
    gint count = secret_service_unlock_dbus_paths_sync(shared_service, (const gchar **) paths, NULL, &unlocked, &gerror);
    g_strfreev(unlocked);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    if (count <= 0) {
        return set_error(error, RIZQ_SECRET_DISMISSED, 0, "the unlock prompt was dismissed");
    }
    return RIZQ_SECRET_OK;
}

static int ready(const char *service, const char *account, int account_required, rizq_secret_error *error) {
    if (!valid_attribute(service) || (account_required && !valid_account(account))) {
        return set_error(error, RIZQ_SECRET_INVALID, 0, "the service must be non-empty UTF-8 text, the account UTF-8 text");
    }
    return rizq_secret_connect(error);
}

int rizq_secret_store(const char *schema_name, const char *service, const char *account, const char *label,
                      const void *bytes, size_t length, int binary, const char *alias, int allow_prompt,
                      rizq_secret_error *error) {
    int status = ready(service, account, 1, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    if (label == NULL || !g_utf8_validate(label, -1, NULL)) {
        return set_error(error, RIZQ_SECRET_INVALID, 0, "the label must be UTF-8 text");
    }
    forget_path(service, account);
    GList *items = NULL;
    status = search(service, account, &items, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    SecretValue *value = secret_value_new(length > 0 ? (const gchar *) bytes : "", (gssize) length,
                                          binary ? "application/octet-stream" : "text/plain");
    GError *gerror = NULL;
    if (items != NULL) {
        /* Replace the secret of the existing item, so that there is never a second one. */
        SecretItem *item = SECRET_ITEM(items->data);
        if (secret_item_get_locked(item)) {
            status = allow_prompt ? unlock_by_prompt(items, error)
                                  : set_error(error, RIZQ_SECRET_LOCKED, 0, "the item is locked");
        }
        if (status == RIZQ_SECRET_OK && !secret_item_set_secret_sync(item, value, NULL, &gerror)) {
            status = take_error(gerror, error);
        }
        if (status == RIZQ_SECRET_OK && !secret_item_set_label_sync(item, label, NULL, &gerror)) {
            status = take_error(gerror, error);
        }
        free_items(items);
        secret_value_unref(value);
        return status;
    }

    SecretCollection *collection = secret_collection_for_alias_sync(shared_service, alias, SECRET_COLLECTION_NONE, NULL, &gerror);
    if (collection == NULL) {
        secret_value_unref(value);
        if (gerror != NULL) {
            return take_error(gerror, error);
        }
        return set_error(error, RIZQ_SECRET_NO_COLLECTION, 0, "there is no collection with this alias");
    }
    if (secret_collection_get_locked(collection)) {
        if (allow_prompt) {
            GList *objects = g_list_append(NULL, collection);
            status = unlock_by_prompt(objects, error);
            g_list_free(objects);
        } else {
            status = set_error(error, RIZQ_SECRET_LOCKED, 0, "the collection is locked");
        }
    }
    if (status == RIZQ_SECRET_OK) {
        const SecretSchema schema = {
            schema_name, SECRET_SCHEMA_NONE,
            { { "service", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "account", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
            0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        };
        GHashTable *attributes = attributes_for(service, account);
        SecretItem *item = secret_item_create_sync(collection, &schema, attributes, label, value,
                                                   SECRET_ITEM_CREATE_REPLACE, NULL, &gerror);
        g_hash_table_unref(attributes);
        if (item == NULL) {
            status = take_error(gerror, error);
        } else {
            g_object_unref(item);
        }
    }
    g_object_unref(collection);
    secret_value_unref(value);
    return status;
}

int rizq_secret_lookup(const char *service, const char *account, int allow_prompt,
                       rizq_secret_value **value, rizq_secret_error *error) {
    *value = NULL;
    int status = ready(service, account, 1, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    SecretValue *remembered = read_remembered(service, account);
    if (remembered != NULL) {
        *value = (rizq_secret_value *) remembered;
        return RIZQ_SECRET_OK;
    }
    /* The full lookup, two round trips: SearchItems, then GetSecrets of the first unlocked item. */
    gint signals_before = g_atomic_int_get(&signals);
    gchar **unlocked = NULL;
    gchar **locked = NULL;
    status = search_paths(service, account, &unlocked, &locked, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    const gchar *chosen = NULL;
    if (unlocked != NULL && unlocked[0] != NULL) {
        chosen = unlocked[0];
    } else if (locked != NULL && locked[0] != NULL) {
        status = allow_prompt ? unlock_paths_by_prompt(locked, error)
                              : set_error(error, RIZQ_SECRET_LOCKED, 0, "the item is locked");
        if (status == RIZQ_SECRET_OK) {
            chosen = locked[0];
        }
    } else {
        status = set_error(error, RIZQ_SECRET_NOT_FOUND, 0, "no such item");
    }
    if (chosen != NULL) {
        GError *gerror = NULL;
        SecretValue *secret = secret_service_get_secret_for_dbus_path_sync(shared_service, chosen, NULL, &gerror);
        if (gerror != NULL) {
            if (secret != NULL) {
                secret_value_unref(secret);
            }
            status = take_error(gerror, error);
        } else if (secret == NULL) {
            status = set_error(error, RIZQ_SECRET_LOCKED, 0, "the service returned no secret for the item");
        } else {
            *value = (rizq_secret_value *) secret;
            remember_path(service, account, chosen, signals_before);
        }
    }
    g_strfreev(unlocked);
    g_strfreev(locked);
    return status;
}

const void *rizq_secret_value_bytes(rizq_secret_value *value, size_t *length) {
    gsize size = 0;
    const gchar *bytes = secret_value_get((SecretValue *) value, &size);
    *length = (size_t) size;
    return bytes;
}

void rizq_secret_value_release(rizq_secret_value *value) {
    if (value != NULL) {
        secret_value_unref((SecretValue *) value);
    }
}

int rizq_secret_delete(const char *service, const char *account, int allow_prompt, rizq_secret_error *error) {
    int status = ready(service, account, 1, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    forget_path(service, account);
    GList *items = NULL;
    status = search(service, account, &items, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    if (items == NULL) {
        return set_error(error, RIZQ_SECRET_NOT_FOUND, 0, "no such item");
    }
    for (GList *node = items; node != NULL && status == RIZQ_SECRET_OK; node = node->next) {
        SecretItem *item = SECRET_ITEM(node->data);
        if (secret_item_get_locked(item)) {
            if (!allow_prompt) {
                status = set_error(error, RIZQ_SECRET_LOCKED, 0, "the item is locked");
                break;
            }
            GList *one = g_list_append(NULL, item);
            status = unlock_by_prompt(one, error);
            g_list_free(one);
            if (status != RIZQ_SECRET_OK) {
                break;
            }
        }
        GError *gerror = NULL;
        if (!secret_item_delete_sync(item, NULL, &gerror)) {
            status = take_error(gerror, error);
        }
    }
    free_items(items);
    return status;
}

int rizq_secret_list(const char *service, char ***accounts, size_t *count, rizq_secret_error *error) {
    *accounts = NULL;
    *count = 0;
    int status = ready(service, NULL, 0, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    GList *items = NULL;
    status = search(service, NULL, &items, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    guint total = g_list_length(items);
    char **names = calloc(total > 0 ? total : 1, sizeof(char *));
    if (names == NULL) {
        free_items(items);
        return set_error(error, RIZQ_SECRET_FAILED, 0, "out of memory");
    }
    size_t found = 0;
    for (GList *node = items; node != NULL; node = node->next) {
        /* Attributes are readable even when the item is locked; the secret is not read. */
        GHashTable *attributes = secret_item_get_attributes(SECRET_ITEM(node->data));
        const char *account = attributes ? g_hash_table_lookup(attributes, "account") : NULL;
        if (account != NULL) {
            names[found++] = strdup(account);
        }
        if (attributes) {
            g_hash_table_unref(attributes);
        }
    }
    free_items(items);
    *accounts = names;
    *count = found;
    return RIZQ_SECRET_OK;
}

void rizq_secret_list_free(char **accounts, size_t count) {
    if (accounts == NULL) {
        return;
    }
    for (size_t index = 0; index < count; index++) {
        free(accounts[index]);
    }
    free(accounts);
}

static int collection_for(const char *alias, SecretCollection **collection, rizq_secret_error *error) {
    int status = rizq_secret_connect(error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    GError *gerror = NULL;
    *collection = secret_collection_for_alias_sync(shared_service, alias, SECRET_COLLECTION_NONE, NULL, &gerror);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    return RIZQ_SECRET_OK;
}

int rizq_secret_collection_status(const char *alias, int *exists, int *locked, rizq_secret_error *error) {
    *exists = 0;
    *locked = 0;
    SecretCollection *collection = NULL;
    int status = collection_for(alias, &collection, error);
    if (status != RIZQ_SECRET_OK || collection == NULL) {
        return status;
    }
    *exists = 1;
    *locked = secret_collection_get_locked(collection) ? 1 : 0;
    g_object_unref(collection);
    return RIZQ_SECRET_OK;
}

int rizq_secret_collection_set_locked(const char *alias, int locked, rizq_secret_error *error) {
    SecretCollection *collection = NULL;
    int status = collection_for(alias, &collection, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    if (collection == NULL) {
        return set_error(error, RIZQ_SECRET_NO_COLLECTION, 0, "there is no collection with this alias");
    }
    GList *objects = g_list_append(NULL, collection);
    GError *gerror = NULL;
    GList *changed = NULL;
    gint count = locked ? secret_service_lock_sync(shared_service, objects, NULL, &changed, &gerror)
                        : secret_service_unlock_sync(shared_service, objects, NULL, &changed, &gerror);
    g_list_free_full(changed, g_object_unref);
    g_list_free(objects);
    g_object_unref(collection);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    if (count <= 0 && !locked) {
        return set_error(error, RIZQ_SECRET_DISMISSED, 0, "the unlock prompt was dismissed");
    }
    return RIZQ_SECRET_OK;
}
