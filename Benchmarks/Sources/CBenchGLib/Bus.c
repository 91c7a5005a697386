/* Bare D-Bus calls to gnome-keyring for RizqBench: the floor under secret-get. See CBenchGLib.h. */
#include "CBenchGLib.h"

#include <gio/gio.h>
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>

static GDBusConnection *bus = NULL;
static gchar *session_path = NULL;
static gchar *item_path = NULL;

static void report(GError *gerror, char *error, size_t error_size) {
    if (error != NULL && error_size > 0) {
        g_strlcpy(error, gerror != NULL ? gerror->message : "unknown GLib error", error_size);
    }
    g_clear_error(&gerror);
}

/* The process's shared session-bus connection: g_bus_get_sync hands every caller in the
 * process the same one, libsecret included. */
static GDBusConnection *session_bus(char *error, size_t error_size) {
    if (bus == NULL) {
        GError *gerror = NULL;
        bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &gerror);
        if (bus == NULL) {
            report(gerror, error, error_size);
        }
    }
    return bus;
}

static GVariant *call(const char *name, const char *path, const char *interface, const char *method,
                      GVariant *parameters, const char *reply_type, char *error, size_t error_size) {
    GDBusConnection *connection = session_bus(error, error_size);
    if (connection == NULL) {
        return NULL;
    }
    GError *gerror = NULL;
    GVariant *reply = g_dbus_connection_call_sync(connection, name, path, interface, method, parameters,
                                                  reply_type != NULL ? G_VARIANT_TYPE(reply_type) : NULL,
                                                  G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, &gerror);
    if (reply == NULL) {
        report(gerror, error, error_size);
    }
    return reply;
}

int bench_bus_ping(const char *name, const char *path, char *error, size_t error_size) {
    GVariant *reply = call(name, path, "org.freedesktop.DBus.Peer", "Ping", NULL, "()", error, error_size);
    if (reply == NULL) {
        return 0;
    }
    g_variant_unref(reply);
    return 1;
}

#define SECRETS "org.freedesktop.secrets"
#define SECRETS_PATH "/org/freedesktop/secrets"
#define SECRETS_SERVICE "org.freedesktop.Secret.Service"

int bench_secret_prepare(const char *service, const char *account, char *error, size_t error_size) {
    if (session_path == NULL) {
        GVariant *opened = call(SECRETS, SECRETS_PATH, SECRETS_SERVICE, "OpenSession",
                                g_variant_new("(sv)", "plain", g_variant_new_string("")), "(vo)", error, error_size);
        if (opened == NULL) {
            return 0;
        }
        g_variant_get(opened, "(vo)", NULL, &session_path);
        g_variant_unref(opened);
    }
    GVariantBuilder attributes;
    g_variant_builder_init(&attributes, G_VARIANT_TYPE("a{ss}"));
    g_variant_builder_add(&attributes, "{ss}", "service", service);
    g_variant_builder_add(&attributes, "{ss}", "account", account);
    GVariant *found = call(SECRETS, SECRETS_PATH, SECRETS_SERVICE, "SearchItems",
                           g_variant_new("(a{ss})", &attributes), "(aoao)", error, error_size);
    if (found == NULL) {
        return 0;
    }
    GVariant *unlocked = g_variant_get_child_value(found, 0);
    g_free(item_path);
    item_path = NULL;
    if (g_variant_n_children(unlocked) > 0) {
        GVariant *first = g_variant_get_child_value(unlocked, 0);
        item_path = g_variant_dup_string(first, NULL);
        g_variant_unref(first);
    }
    g_variant_unref(unlocked);
    g_variant_unref(found);
    if (item_path == NULL && error != NULL && error_size > 0) {
        g_snprintf(error, error_size, "no unlocked item with service=%s account=%s", service, account);
    }
    return item_path != NULL;
}

long bench_secret_get(char *error, size_t error_size) {
    if (item_path == NULL || session_path == NULL) {
        if (error != NULL && error_size > 0) {
            g_strlcpy(error, "bench_secret_prepare was not called", error_size);
        }
        return -1;
    }
    const gchar *paths[] = {item_path, NULL};
    GVariant *reply = call(SECRETS, SECRETS_PATH, SECRETS_SERVICE, "GetSecrets",
                           g_variant_new("(^aoo)", paths, session_path), "(a{o(oayays)})", error, error_size);
    if (reply == NULL) {
        return -1;
    }
    long length = -1;
    GVariant *secrets = g_variant_get_child_value(reply, 0);
    if (g_variant_n_children(secrets) == 1) {
        GVariant *entry = g_variant_get_child_value(secrets, 0);
        GVariant *secret = g_variant_get_child_value(entry, 1);
        GVariant *value = g_variant_get_child_value(secret, 2);
        length = (long) g_variant_n_children(value);
        g_variant_unref(value);
        g_variant_unref(secret);
        g_variant_unref(entry);
    }
    g_variant_unref(secrets);
    g_variant_unref(reply);
    return length;
}

long bench_libsecret_get(char *error, size_t error_size) {
    if (item_path == NULL) {
        if (error != NULL && error_size > 0) {
            g_strlcpy(error, "bench_secret_prepare was not called", error_size);
        }
        return -1;
    }
    GError *gerror = NULL;
    /* The process's shared SecretService, its session already open (RizqSecrets opened it). */
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &gerror);
    if (service == NULL) {
        report(gerror, error, error_size);
        return -1;
    }
    SecretValue *value = secret_service_get_secret_for_dbus_path_sync(service, item_path, NULL, &gerror);
    g_object_unref(service);
    if (value == NULL) {
        report(gerror, error, error_size);
        return -1;
    }
    gsize length = 0;
    secret_value_get(value, &length);
    secret_value_unref(value);
    return (long) length;
}
