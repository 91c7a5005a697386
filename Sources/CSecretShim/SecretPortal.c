#define _GNU_SOURCE /* pipe2 */
#include "RizqSecretPortal.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GLib and GIO as this file uses them, declared here as CSecretShim.c declares its own (why:
 * CSecretShim.h). Every type but GError goes through pointers; a GVariantType is its type
 * string; the constants are gioenums.h's. GLib allocates with malloc (since 2.46). */
typedef struct { unsigned domain; int code; char *message; } GError;
typedef void GVariant, GDBusConnection, GUnixFDList, GMainContext, GSource;
typedef int (*GSourceFunc)(void *data);
typedef void (*GDBusSignalCallback)(GDBusConnection *, const char *sender, const char *path, const char *interface,
                                    const char *signal, GVariant *parameters, void *data);
enum {
    G_BUS_TYPE_SESSION = 2,
    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT = 1 << 0,
    G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION = 1 << 3,
};

#define FUNCTIONS(F)                                                                                                  \
    F(char *, g_dbus_address_get_for_bus_sync, (int, void *, GError **))                                              \
    F(GDBusConnection *, g_dbus_connection_new_for_address_sync, (const char *, int, void *, void *, GError **))      \
    F(const char *, g_dbus_connection_get_unique_name, (GDBusConnection *))                                           \
    F(int, g_dbus_connection_close_sync, (GDBusConnection *, void *, GError **))                                      \
    F(GVariant *, g_dbus_connection_call_sync, (GDBusConnection *, const char *name, const char *path,               \
        const char *interface, const char *method, GVariant *, const char *reply_type, int flags, int timeout_ms,     \
        void *cancellable, GError **))                                                                                 \
    F(GVariant *, g_dbus_connection_call_with_unix_fd_list_sync, (GDBusConnection *, const char *name,                \
        const char *path, const char *interface, const char *method, GVariant *, const char *reply_type, int flags,   \
        int timeout_ms, GUnixFDList *, GUnixFDList **out, void *cancellable, GError **))                              \
    F(unsigned, g_dbus_connection_signal_subscribe, (GDBusConnection *, const char *sender, const char *interface,     \
        const char *member, const char *path, const char *arg0, int flags, GDBusSignalCallback, void *,               \
        void (*)(void *)))                                                                                             \
    F(void, g_dbus_connection_signal_unsubscribe, (GDBusConnection *, unsigned))                                      \
    F(GUnixFDList *, g_unix_fd_list_new, (void)) F(int, g_unix_fd_list_append, (GUnixFDList *, int, GError **))      \
    F(GMainContext *, g_main_context_new, (void)) F(void, g_main_context_unref, (GMainContext *))                    \
    F(void, g_main_context_push_thread_default, (GMainContext *))                                                     \
    F(void, g_main_context_pop_thread_default, (GMainContext *))                                                      \
    F(int, g_main_context_iteration, (GMainContext *, int may_block))                                                 \
    F(GSource *, g_timeout_source_new, (unsigned)) F(unsigned, g_source_attach, (GSource *, GMainContext *))          \
    F(void, g_source_set_callback, (GSource *, GSourceFunc, void *, void (*)(void *)))                               \
    F(void, g_source_destroy, (GSource *)) F(void, g_source_unref, (GSource *))                                       \
    F(GVariant *, g_variant_new, (const char *format, ...)) F(void, g_variant_get, (GVariant *, const char *, ...))  \
    F(GVariant *, g_variant_new_array, (const char *child_type, GVariant *const *children, size_t count))            \
    F(int, g_variant_is_of_type, (GVariant *, const char *)) F(size_t, g_variant_n_children, (GVariant *))           \
    F(void, g_variant_unref, (GVariant *)) F(void, g_object_unref, (void *))                                          \
    F(const char *, g_quark_to_string, (unsigned)) F(char *, g_dbus_error_get_remote_error, (GError *))              \
    F(void, g_error_free, (GError *))

#define DECLARE(result, name, parameters) result(*name) parameters;
static struct { FUNCTIONS(DECLARE) } gio;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static rizq_secret_status loaded = RIZQ_SECRET_NO_LIBRARY;
static char load_message[512];

#define RESOLVE(result, name, parameters)                                                                           \
    if ((*(void **) &gio.name = dlsym(library, #name)) == NULL && missing == NULL) missing = #name;

/* GIO, whose dependencies bring GLib and GObject (dlsym searches those too). It stays open. */
static void load(void) {
    void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    const char *missing = NULL, *reason = library == NULL ? dlerror() : NULL;
    if (library != NULL) { FUNCTIONS(RESOLVE) }
    loaded = library == NULL ? RIZQ_SECRET_NO_LIBRARY : missing != NULL ? RIZQ_SECRET_NO_SYMBOL : RIZQ_SECRET_OK;
    snprintf(load_message, sizeof load_message, "%s", missing != NULL ? missing : reason != NULL ? reason : "");
}

/* Fills `error` with a GError's names, or with `message` alone; frees the GError. */
static rizq_secret_status failed(rizq_secret_error *error, rizq_secret_status status, GError *gerror, const char *message) {
    memset(error, 0, sizeof *error);
    snprintf(error->message, sizeof error->message, "%s", gerror != NULL ? gerror->message : message);
    if (gerror == NULL) return status;
    const char *domain = gio.g_quark_to_string(gerror->domain);
    char *remote = gio.g_dbus_error_get_remote_error(gerror);
    snprintf(error->domain, sizeof error->domain, "%s", domain != NULL ? domain : "");
    snprintf(error->dbus_name, sizeof error->dbus_name, "%s", remote != NULL ? remote : "");
    error->code = gerror->code;
    free(remote);
    gio.g_error_free(gerror);
    return status;
}
#define FAILED(error, gerror) failed(error, RIZQ_SECRET_FAILED, gerror, "GIO failed without saying why")

#define PORTAL "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"

struct rizq_portal_request {
    GDBusConnection *connection;
    GMainContext *context; /* where the Response signal is delivered */
    unsigned subscription;
    char *owner;           /* the portal's unique name: the only sender believed */
    int answered;
    unsigned response, results_count;
};

rizq_secret_status rizq_portal_open(int timeout_ms, rizq_portal_request **request, char **unique_name, char **portal_owner,
                                    rizq_secret_error *error) {
    pthread_once(&load_once, load);
    if (loaded != RIZQ_SECRET_OK) return failed(error, loaded, NULL, load_message);
    GError *gerror = NULL;
    char *address = gio.g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, NULL, &gerror);
    if (address == NULL) return FAILED(error, gerror);
    GDBusConnection *connection = gio.g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL,
        &gerror);
    free(address);
    if (connection == NULL) return FAILED(error, gerror);
    GVariant *reply = gio.g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "GetNameOwner", gio.g_variant_new("(s)", PORTAL),
                                                      "(s)", 0, timeout_ms, NULL, &gerror);
    if (reply == NULL) {
        gio.g_dbus_connection_close_sync(connection, NULL, NULL);
        gio.g_object_unref(connection);
        return FAILED(error, gerror);
    }
    rizq_portal_request *made = calloc(1, sizeof *made);
    if (made == NULL) {
        gio.g_variant_unref(reply);
        gio.g_dbus_connection_close_sync(connection, NULL, NULL);
        gio.g_object_unref(connection);
        return failed(error, RIZQ_SECRET_FAILED, NULL, "out of memory");
    }
    gio.g_variant_get(reply, "(s)", &made->owner);
    gio.g_variant_unref(reply);
    made->connection = connection;
    made->context = gio.g_main_context_new();
    *request = made;
    *unique_name = strdup(gio.g_dbus_connection_get_unique_name(connection));
    *portal_owner = strdup(made->owner);
    return RIZQ_SECRET_OK;
}

rizq_secret_status rizq_portal_version(rizq_portal_request *request, int timeout_ms, unsigned *version, rizq_secret_error *error) {
    GError *gerror = NULL;
    GVariant *reply = gio.g_dbus_connection_call_sync(
        request->connection, PORTAL, PORTAL_PATH, "org.freedesktop.DBus.Properties", "Get",
        gio.g_variant_new("(ss)", "org.freedesktop.portal.Secret", "version"), "(v)", 0, timeout_ms, NULL, &gerror);
    if (reply == NULL) return FAILED(error, gerror);
    GVariant *value = NULL;
    gio.g_variant_get(reply, "(v)", &value);
    *version = 0;
    if (gio.g_variant_is_of_type(value, "u")) gio.g_variant_get(value, "u", version);
    gio.g_variant_unref(value);
    gio.g_variant_unref(reply);
    return RIZQ_SECRET_OK;
}

/* Runs in the request's main context, from rizq_portal_wait. */
static void on_response(GDBusConnection *connection, const char *sender, const char *path, const char *interface,
                        const char *signal, GVariant *parameters, void *data) {
    (void) connection, (void) sender, (void) path, (void) interface, (void) signal;
    rizq_portal_request *request = data;
    if (request->answered || !gio.g_variant_is_of_type(parameters, "(ua{sv})")) return;
    GVariant *results = NULL;
    gio.g_variant_get(parameters, "(u@a{sv})", &request->response, &results);
    request->results_count = (unsigned) gio.g_variant_n_children(results);
    gio.g_variant_unref(results);
    request->answered = 1;
}

void rizq_portal_listen(rizq_portal_request *request, const char *handle) {
    if (request->subscription != 0) gio.g_dbus_connection_signal_unsubscribe(request->connection, request->subscription);
    /* The subscription delivers to the thread-default context at the time it is made. */
    gio.g_main_context_push_thread_default(request->context);
    request->subscription = gio.g_dbus_connection_signal_subscribe(request->connection, request->owner,
                                                                   "org.freedesktop.portal.Request", "Response", handle, NULL,
                                                                   0, on_response, request, NULL);
    gio.g_main_context_pop_thread_default(request->context);
}

rizq_secret_status rizq_portal_retrieve_secret(rizq_portal_request *request, int fd, const char *token, int timeout_ms,
                                               char **handle, rizq_secret_error *error) {
    GError *gerror = NULL;
    GUnixFDList *fds = gio.g_unix_fd_list_new();
    int index = gio.g_unix_fd_list_append(fds, fd, &gerror);
    if (index < 0) {
        gio.g_object_unref(fds);
        return FAILED(error, gerror);
    }
    GVariant *entry = gio.g_variant_new("{sv}", "handle_token", gio.g_variant_new("s", token));
    GVariant *parameters = gio.g_variant_new("(h@a{sv})", index, gio.g_variant_new_array("{sv}", &entry, 1));
    GVariant *reply = gio.g_dbus_connection_call_with_unix_fd_list_sync(
        request->connection, PORTAL, PORTAL_PATH, "org.freedesktop.portal.Secret", "RetrieveSecret", parameters, "(o)", 0,
        timeout_ms, fds, NULL, NULL, &gerror);
    /* The message held the duplicate until it was sent; this lets go of the list's. */
    gio.g_object_unref(fds);
    if (reply == NULL) return FAILED(error, gerror);
    gio.g_variant_get(reply, "(o)", handle);
    gio.g_variant_unref(reply);
    return RIZQ_SECRET_OK;
}

int rizq_portal_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

static int expire(void *data) {
    *(int *) data = 1;
    return 0; /* G_SOURCE_REMOVE */
}

bool rizq_portal_wait(rizq_portal_request *request, int timeout_ms, unsigned *response, unsigned *results_count) {
    int expired = 0;
    GSource *timer = gio.g_timeout_source_new(timeout_ms > 0 ? (unsigned) timeout_ms : 0);
    gio.g_source_set_callback(timer, expire, &expired, NULL);
    gio.g_source_attach(timer, request->context);
    while (!request->answered && !expired) gio.g_main_context_iteration(request->context, 1);
    gio.g_source_destroy(timer);
    gio.g_source_unref(timer);
    *response = request->response;
    *results_count = request->results_count;
    return request->answered;
}

void rizq_portal_close_request(rizq_portal_request *request, const char *handle, int timeout_ms) {
    GVariant *reply = gio.g_dbus_connection_call_sync(request->connection, PORTAL, handle, "org.freedesktop.portal.Request",
                                                      "Close", NULL, NULL, 0, timeout_ms, NULL, NULL);
    if (reply != NULL) gio.g_variant_unref(reply);
}

void rizq_portal_release(rizq_portal_request *request) {
    if (request == NULL) return;
    if (request->subscription != 0) gio.g_dbus_connection_signal_unsubscribe(request->connection, request->subscription);
    /* Signals already queued for the context are dropped with it. */
    while (gio.g_main_context_iteration(request->context, 0)) {}
    gio.g_main_context_unref(request->context);
    gio.g_dbus_connection_close_sync(request->connection, NULL, NULL);
    gio.g_object_unref(request->connection);
    free(request->owner);
    free(request);
}
