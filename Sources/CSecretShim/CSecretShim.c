#include "CSecretShim.h"

/* For the D-Bus path calls (secret-paths.h) that reads use: libsecret marks them "subject to
 * change", but they have been unchanged since libsecret 0.7, and a change would fail the build
 * here, never silently. */
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
#include <stdlib.h>
#include <string.h>

static SecretService *shared_service = NULL;
static gint call_timeout = -1;

#define RETURN_UNLESS_CONNECTED(error)                     \
    do {                                                   \
        int connected_ = rizq_secret_connect(error);       \
        if (connected_ != RIZQ_SECRET_OK) return connected_; \
    } while (0)

/* The change counter. Why a remembered item path may be trusted only while it stands still, and
 * the D-Bus ordering that argument rests on: RizqSecrets/Shim/SecretPathCache.swift. */
static GDBusConnection *watched = NULL;   /* the connection the filter and match rules are on */
static guint filter_id = 0;
static gint changes = 0;                  /* written by GDBus's message thread: atomic */

static const char *const match_rules[] = {
    "type='signal',path_namespace='/org/freedesktop/secrets'",
    "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.secrets'",
};

static int set_status(rizq_secret_error *error, int status, const char *message) {
    if (error != NULL) {
        memset(error, 0, sizeof(*error));
        g_strlcpy(error->message, message, sizeof(error->message));
    }
    return status;
}

/* Copies a GError into `error` by names (RizqSecrets sorts it), and frees it. The code's name
 * comes from the enum type GLib registers for the domain. */
static int take_error(GError *gerror, rizq_secret_error *error) {
    set_status(error, RIZQ_SECRET_ERROR, gerror != NULL ? gerror->message : "the Secret Service failed without saying why");
    if (gerror != NULL && error != NULL) {
        error->code = gerror->code;
        g_strlcpy(error->domain, g_quark_to_string(gerror->domain), sizeof(error->domain));
        GType type = gerror->domain == G_DBUS_ERROR ? G_TYPE_DBUS_ERROR
                   : gerror->domain == G_IO_ERROR   ? G_TYPE_IO_ERROR_ENUM
                   : gerror->domain == SECRET_ERROR ? SECRET_TYPE_ERROR
                                                    : G_TYPE_INVALID;
        /* An enum class of GLib's is never finalized: the reference is a count, not memory. */
        GEnumValue *value = type != G_TYPE_INVALID ? g_enum_get_value(g_type_class_ref(type), gerror->code) : NULL;
        g_strlcpy(error->code_name, value != NULL ? value->value_nick : "", sizeof(error->code_name));
        gchar *remote = g_dbus_error_get_remote_error(gerror);
        g_strlcpy(error->dbus_name, remote != NULL ? remote : "", sizeof(error->dbus_name));
        g_free(remote);
    }
    g_clear_error(&gerror);
    return RIZQ_SECRET_ERROR;
}

/* Counts the signals that may change what an item path means; passes every message on. */
static GDBusMessage *count_changes(GDBusConnection *connection G_GNUC_UNUSED, GDBusMessage *message, gboolean incoming,
                                   gpointer user_data G_GNUC_UNUSED) {
    if (incoming && g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_SIGNAL) {
        const gchar *path = g_dbus_message_get_path(message);
        if ((path != NULL && g_str_has_prefix(path, "/org/freedesktop/secrets")) ||
            (g_strcmp0(g_dbus_message_get_member(message), "NameOwnerChanged") == 0 &&
             g_strcmp0(g_dbus_message_get_arg0(message), "org.freedesktop.secrets") == 0)) {
            g_atomic_int_inc(&changes);
        }
    }
    return message;
}

/* Removes the first `count` match rules; no reply wanted, so nothing waits on the bus. */
static void remove_matches(GDBusConnection *connection, size_t count) {
    for (size_t index = 0; index < count; index++) {
        g_dbus_connection_call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "RemoveMatch", g_variant_new("(s)", match_rules[index]), NULL,
                               G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL, NULL);
    }
}

/* Subscribes to the signals above (the bus has the rules before any later call of ours reaches
 * the service); without them nothing is counted. */
static void start_counting(void) {
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
    filter_id = g_dbus_connection_add_filter(watched, count_changes, NULL, NULL);
}

int rizq_secret_connect(rizq_secret_error *error) {
    if (shared_service == NULL) {
        GError *gerror = NULL;
        shared_service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &gerror);
        if (shared_service == NULL) {
            return take_error(gerror, error);
        }
        start_counting();
    }
    g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(shared_service), call_timeout);
    return RIZQ_SECRET_OK;
}

void rizq_secret_disconnect(void) {
    if (watched != NULL) {
        g_dbus_connection_remove_filter(watched, filter_id);
        remove_matches(watched, G_N_ELEMENTS(match_rules));
        g_clear_object(&watched);
    }
    g_clear_object(&shared_service);
    secret_service_disconnect();
}

void rizq_secret_set_timeout(int milliseconds) {
    call_timeout = milliseconds;
}

int rizq_secret_changes(unsigned *count) {
    *count = (unsigned) g_atomic_int_get(&changes);
    return watched != NULL;
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

/* The items with these attributes, whatever their schema (so items made by secret-tool match). */
static int search(const char *service, const char *account, GList **items, rizq_secret_error *error) {
    RETURN_UNLESS_CONNECTED(error);
    GHashTable *attributes = attributes_for(service, account);
    GError *gerror = NULL;
    *items = secret_service_search_sync(shared_service, NULL, attributes, SECRET_SEARCH_ALL, NULL, &gerror);
    g_hash_table_unref(attributes);
    return gerror != NULL ? take_error(gerror, error) : RIZQ_SECRET_OK;
}

/* Locks, or unlocks by prompting, one item or collection; DISMISSED when an unlock changed nothing. */
static int set_locked(gpointer object, int lock, rizq_secret_error *error) {
    GList *objects = g_list_append(NULL, object);
    GList *changed = NULL;
    GError *gerror = NULL;
    gint count = lock ? secret_service_lock_sync(shared_service, objects, NULL, &changed, &gerror)
                      : secret_service_unlock_sync(shared_service, objects, NULL, &changed, &gerror);
    g_list_free_full(changed, g_object_unref);
    g_list_free(objects);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    return count > 0 || lock ? RIZQ_SECRET_OK : set_status(error, RIZQ_SECRET_DISMISSED, "the unlock prompt was dismissed");
}

/* Unlocks a locked item or collection by prompting, when allowed. */
static int unlock_one(gpointer object, int allow_prompt, rizq_secret_error *error) {
    return allow_prompt ? set_locked(object, 0, error)
                        : set_status(error, RIZQ_SECRET_LOCKED, "the item or collection is locked");
}

int rizq_secret_search_paths(const char *service, const char *account, char ***unlocked, char ***locked,
                             rizq_secret_error *error) {
    *unlocked = NULL;
    *locked = NULL;
    RETURN_UNLESS_CONNECTED(error);
    GHashTable *attributes = attributes_for(service, account);
    GError *gerror = NULL;
    secret_service_search_for_dbus_paths_sync(shared_service, NULL, attributes, NULL, unlocked, locked, &gerror);
    g_hash_table_unref(attributes);
    return gerror != NULL ? take_error(gerror, error) : RIZQ_SECRET_OK;
}

void rizq_secret_paths_free(char **paths) {
    g_strfreev(paths);
}

int rizq_secret_unlock_paths(char **paths, rizq_secret_error *error) {
    RETURN_UNLESS_CONNECTED(error);
    GError *gerror = NULL;
    gchar **unlocked = NULL;
    gint count = secret_service_unlock_dbus_paths_sync(shared_service, (const gchar **) paths, NULL, &unlocked, &gerror);
    g_strfreev(unlocked);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    return count > 0 ? RIZQ_SECRET_OK : set_status(error, RIZQ_SECRET_DISMISSED, "the unlock prompt was dismissed");
}

int rizq_secret_read_path(const char *path, rizq_secret_value **value, rizq_secret_error *error) {
    *value = NULL;
    RETURN_UNLESS_CONNECTED(error);
    GError *gerror = NULL;
    SecretValue *secret = secret_service_get_secret_for_dbus_path_sync(shared_service, path, NULL, &gerror);
    if (gerror != NULL) {
        g_clear_pointer(&secret, secret_value_unref);
        return take_error(gerror, error);
    }
    if (secret == NULL) {
        return set_status(error, RIZQ_SECRET_LOCKED, "the service returned no secret for the item");
    }
    *value = (rizq_secret_value *) secret;
    return RIZQ_SECRET_OK;
}

const void *rizq_secret_value_bytes(rizq_secret_value *value, size_t *length) {
    gsize size = 0;
    const gchar *bytes = secret_value_get((SecretValue *) value, &size);
    *length = (size_t) size;
    return bytes;
}

void rizq_secret_value_release(rizq_secret_value *value) {
    secret_value_unref((SecretValue *) value);
}

/* The collection with `alias`; NO_COLLECTION when there is none. */
static int collection_for(const char *alias, SecretCollection **collection, rizq_secret_error *error) {
    *collection = NULL;
    RETURN_UNLESS_CONNECTED(error);
    GError *gerror = NULL;
    *collection = secret_collection_for_alias_sync(shared_service, alias, SECRET_COLLECTION_NONE, NULL, &gerror);
    if (gerror != NULL) {
        return take_error(gerror, error);
    }
    return *collection != NULL ? RIZQ_SECRET_OK
                               : set_status(error, RIZQ_SECRET_NO_COLLECTION, "there is no collection with this alias");
}

/* A new item in the collection with `alias`, under the schema `schema_name`. */
static int create_item(const char *schema_name, const char *service, const char *account, const char *label,
                       SecretValue *value, const char *alias, int allow_prompt, rizq_secret_error *error) {
    SecretCollection *collection = NULL;
    int status = collection_for(alias, &collection, error);
    if (status == RIZQ_SECRET_OK && secret_collection_get_locked(collection)) {
        status = unlock_one(collection, allow_prompt, error);
    }
    if (status == RIZQ_SECRET_OK) {
        GError *gerror = NULL;
        const SecretSchema schema = {
            schema_name, SECRET_SCHEMA_NONE,
            { { "service", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "account", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
            0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        };
        GHashTable *attributes = attributes_for(service, account);
        SecretItem *item = secret_item_create_sync(collection, &schema, attributes, label, value,
                                                   SECRET_ITEM_CREATE_REPLACE, NULL, &gerror);
        g_hash_table_unref(attributes);
        status = item != NULL ? RIZQ_SECRET_OK : take_error(gerror, error);
        g_clear_object(&item);
    }
    g_clear_object(&collection);
    return status;
}

int rizq_secret_store(const char *schema_name, const char *service, const char *account, const char *label,
                      const void *bytes, size_t length, int binary, const char *alias, int allow_prompt,
                      rizq_secret_error *error) {
    GList *items = NULL;
    int status = search(service, account, &items, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    SecretValue *value = secret_value_new(length > 0 ? (const gchar *) bytes : "", (gssize) length,
                                          binary ? "application/octet-stream" : "text/plain");
    if (items == NULL) {
        status = create_item(schema_name, service, account, label, value, alias, allow_prompt, error);
    } else {
        /* Replace the secret of the existing item, so that there is never a second one. */
        SecretItem *item = SECRET_ITEM(items->data);
        GError *gerror = NULL;
        status = secret_item_get_locked(item) ? unlock_one(item, allow_prompt, error) : RIZQ_SECRET_OK;
        if (status == RIZQ_SECRET_OK && !secret_item_set_secret_sync(item, value, NULL, &gerror)) {
            status = take_error(gerror, error);
        }
        if (status == RIZQ_SECRET_OK && !secret_item_set_label_sync(item, label, NULL, &gerror)) {
            status = take_error(gerror, error);
        }
        g_list_free_full(items, g_object_unref);
    }
    secret_value_unref(value);
    return status;
}

int rizq_secret_delete_path(const char *path, rizq_secret_error *error) {
    RETURN_UNLESS_CONNECTED(error);
    GError *gerror = NULL;
    secret_service_delete_item_dbus_path_sync(shared_service, path, NULL, &gerror);
    return gerror != NULL ? take_error(gerror, error) : RIZQ_SECRET_OK;
}

int rizq_secret_list(const char *service, char ***accounts, size_t *count, rizq_secret_error *error) {
    *accounts = NULL;
    *count = 0;
    GList *items = NULL;
    int status = search(service, NULL, &items, error);
    if (status != RIZQ_SECRET_OK) {
        return status;
    }
    char **names = calloc(g_list_length(items) + 1, sizeof(char *));
    for (GList *node = items; node != NULL && names != NULL; node = node->next) {
        /* Attributes are readable even when the item is locked; the secret is not read. */
        GHashTable *attributes = secret_item_get_attributes(SECRET_ITEM(node->data));
        const char *account = attributes != NULL ? g_hash_table_lookup(attributes, "account") : NULL;
        if (account != NULL) {
            names[(*count)++] = strdup(account);
        }
        g_clear_pointer(&attributes, g_hash_table_unref);
    }
    g_list_free_full(items, g_object_unref);
    *accounts = names;
    return names != NULL ? RIZQ_SECRET_OK : set_status(error, RIZQ_SECRET_ERROR, "out of memory");
}

int rizq_secret_collection_status(const char *alias, int *exists, int *locked, rizq_secret_error *error) {
    SecretCollection *collection = NULL;
    int status = collection_for(alias, &collection, error);
    *exists = collection != NULL;
    *locked = collection != NULL && secret_collection_get_locked(collection);
    g_clear_object(&collection);
    return status == RIZQ_SECRET_NO_COLLECTION ? RIZQ_SECRET_OK : status;
}

int rizq_secret_collection_set_locked(const char *alias, int locked, rizq_secret_error *error) {
    SecretCollection *collection = NULL;
    int status = collection_for(alias, &collection, error);
    if (status == RIZQ_SECRET_OK) {
        status = set_locked(collection, locked, error);
    }
    g_clear_object(&collection);
    return status;
}
