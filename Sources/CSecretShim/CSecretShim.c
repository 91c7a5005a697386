#include "CSecretShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libsecret, GLib and GIO as the shim uses them (why declared here: CSecretShim.h). Every type but
 * GError goes through pointers; a GVariantType is its type string; the constants are gioenums.h's
 * and secret-service.h's. GLib allocates with malloc (since 2.46), so free() releases its strings. */
typedef struct { unsigned domain; int code; char *message; } GError;
typedef void GVariant, GDBusConnection, GDBusMessage, SecretService, SecretValue;
typedef GDBusMessage *(*GDBusMessageFilterFunction)(GDBusConnection *, GDBusMessage *, int incoming, void *data);
enum { G_BUS_TYPE_SESSION = 2, G_DBUS_MESSAGE_TYPE_SIGNAL = 4, SECRET_SERVICE_NONE = 0 };

#define FUNCTIONS(F)                                                                                                  \
    F(SecretService *, secret_service_get_sync, (int flags, void *cancellable, GError **))                           \
    F(int, secret_service_ensure_session_sync, (SecretService *, void *cancellable, GError **))                       \
    F(SecretValue *, secret_service_get_secret_for_dbus_path_sync, (SecretService *, const char *, void *, GError **)) \
    F(GVariant *, secret_service_prompt_at_dbus_path_sync, (SecretService *, const char *, void *, const char *type,   \
                                                              GError **))                                             \
    F(GVariant *, secret_service_encode_dbus_secret, (SecretService *, SecretValue *))                                \
    F(SecretValue *, secret_value_new, (const void *secret, long length, const char *content_type))                   \
    F(const void *, secret_value_get, (SecretValue *, size_t *length)) F(void, secret_value_unref, (SecretValue *))    \
    F(void, secret_service_disconnect, (void)) F(GDBusConnection *, g_bus_get_sync, (int, void *, GError **))          \
    F(GVariant *, g_dbus_connection_call_sync, (GDBusConnection *, const char *name, const char *path,               \
        const char *interface, const char *method, GVariant *, const char *reply_type, int flags, int timeout_ms,     \
        void *cancellable, GError **))                                                                                 \
    F(unsigned, g_dbus_connection_add_filter, (GDBusConnection *, GDBusMessageFilterFunction, void *, void *))         \
    F(int, g_dbus_message_get_message_type, (GDBusMessage *)) F(char *, g_dbus_error_get_remote_error, (GError *))    \
    F(void, g_dbus_proxy_set_default_timeout, (void *, int)) F(void, g_object_unref, (void *))                          \
    F(const char *, g_quark_to_string, (unsigned)) F(void, g_error_free, (GError *))                                   \
    F(GVariant *, g_variant_new, (const char *format, ...)) F(void, g_variant_unref, (GVariant *))                    \
    F(GVariant *, g_variant_new_va, (const char *format, const char **end, va_list *))                                \
    F(int, g_variant_get_boolean, (GVariant *))                                                                        \
    F(void, g_variant_get_va, (GVariant *, const char *format, const char **end, va_list *))                           \
    F(GVariant *, g_variant_new_array, (const char *child_type, GVariant *const *children, size_t count))             \
    F(int, g_variant_lookup, (GVariant *, const char *key, const char *format, ...))                                  \
    F(int, g_variant_is_of_type, (GVariant *, const char *)) F(char **, g_variant_dup_objv, (GVariant *, size_t *))

#define DECLARE(result, name, parameters) result(*name) parameters;
static struct { FUNCTIONS(DECLARE) } fn;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static rizq_secret_status loaded = RIZQ_SECRET_NO_LIBRARY;
static char load_message[512];

#define RESOLVE(result, name, parameters)                                                                           \
    if ((*(void **) &fn.name = dlsym(library, #name)) == NULL && missing == NULL) missing = #name;

/* Opens libsecret, whose dependencies bring GLib and GIO (dlsym searches those too), and finds every
 * function. It stays open: GLib cannot be unloaded. */
static void load(void) {
    void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    const char *missing = NULL, *reason = library == NULL ? dlerror() : NULL;
    if (library != NULL) { FUNCTIONS(RESOLVE) }
    loaded = library == NULL ? RIZQ_SECRET_NO_LIBRARY : missing != NULL ? RIZQ_SECRET_NO_SYMBOL : RIZQ_SECRET_OK;
    snprintf(load_message, sizeof load_message, "%s", missing != NULL ? missing : reason != NULL ? reason : "");
}

/* Fills `error` with a GError's names (RizqSecrets sorts it), or with `message` alone; frees the GError. */
static rizq_secret_status failed(rizq_secret_error *error, rizq_secret_status status, GError *gerror, const char *message) {
    memset(error, 0, sizeof *error);
    snprintf(error->message, sizeof error->message, "%s", gerror != NULL ? gerror->message : message);
    if (gerror == NULL) return status;
    const char *domain = fn.g_quark_to_string(gerror->domain);
    char *remote = fn.g_dbus_error_get_remote_error(gerror);
    snprintf(error->domain, sizeof error->domain, "%s", domain != NULL ? domain : "");
    snprintf(error->dbus_name, sizeof error->dbus_name, "%s", remote != NULL ? remote : "");
    error->code = gerror->code;
    free(remote);
    fn.g_error_free(gerror);
    return status;
}
#define FAILED(error, gerror) failed(error, RIZQ_SECRET_FAILED, gerror, "the Secret Service failed without saying why")

#define BUS "org.freedesktop.DBus"
#define SERVICE "org.freedesktop.Secret.Service"
#define COLLECTION "org.freedesktop.Secret.Collection"
#define ITEM "org.freedesktop.Secret.Item"
#define PROPERTIES BUS ".Properties"
#define NAME "org.freedesktop.secrets"
#define ROOT "/org/freedesktop/secrets"
static SecretService *service = NULL;
static GDBusConnection *bus = NULL; /* GLib's shared one: it ends the process when it closes */

/* One call to `name`'s object at `path`. After `in` come the call's parameters (a GVariant format
 * and what it takes), the reply's type, `out`, a format to read the reply with (NULL: not read), and
 * the pointers it fills. */
static rizq_secret_status ask(rizq_secret_error *error, const char *name, const char *path, const char *interface,
                              const char *method, int timeout_ms, const char *in, ...) {
    va_list arguments;
    va_start(arguments, in);
    GVariant *parameters = fn.g_variant_new_va(in, NULL, &arguments);
    const char *reply_type = va_arg(arguments, const char *), *out = va_arg(arguments, const char *);
    GError *gerror = NULL;
    GVariant *reply = fn.g_dbus_connection_call_sync(bus, name, path, interface, method, parameters, reply_type, 0,
                                                     timeout_ms, NULL, &gerror);
    if (reply != NULL && out != NULL) fn.g_variant_get_va(reply, out, NULL, &arguments);
    va_end(arguments);
    if (reply == NULL) return FAILED(error, gerror);
    fn.g_variant_unref(reply);
    return RIZQ_SECRET_OK;
}

/* The change counter: every signal the connection receives. The match rules make those the
 * service's, plus any that other GLib code of the process subscribed to (they cost a search). */
static atomic_uint changes; /* written by GDBus's message thread */
static bool watching = false;

static GDBusMessage *count_signals(GDBusConnection *connection, GDBusMessage *message, int incoming, void *data) {
    (void) connection, (void) data;
    if (incoming && fn.g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_SIGNAL) atomic_fetch_add(&changes, 1);
    return message;
}

/* Once, waiting for the bus's reply: the bus has the rule before any later call of ours reaches the service. */
#define ADD_MATCH(rule) (ask(&ignored, BUS, "/org/freedesktop/DBus", BUS, "AddMatch", timeout_ms, "(s)", rule, NULL, NULL) \
                         == RIZQ_SECRET_OK)

rizq_secret_status rizq_secret_connect(int timeout_ms, rizq_secret_error *error) {
    pthread_once(&load_once, load);
    if (loaded != RIZQ_SECRET_OK) return failed(error, loaded, NULL, load_message);
    if (service != NULL) return RIZQ_SECRET_OK;
    GError *gerror = NULL;
    if (bus == NULL && (bus = fn.g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &gerror)) == NULL) return FAILED(error, gerror);
    /* The ping keeps connecting within this call's time-out: libsecret's proxy loads the service's
     * properties with GDBus's own 25 s, which nothing shortens, and a frozen daemon would hold it. */
    if (ask(error, NAME, ROOT, BUS ".Peer", "Ping", timeout_ms, "()", NULL, NULL) != RIZQ_SECRET_OK) return RIZQ_SECRET_FAILED;
    if ((service = fn.secret_service_get_sync(SECRET_SERVICE_NONE, NULL, &gerror)) == NULL) return FAILED(error, gerror);
    fn.g_dbus_proxy_set_default_timeout(service, timeout_ms);
    if (!fn.secret_service_ensure_session_sync(service, NULL, &gerror)) {
        rizq_secret_disconnect();
        return failed(error, RIZQ_SECRET_NO_SESSION, gerror, "the Secret Service opened no session");
    }
    rizq_secret_error ignored;
    watching = watching || (ADD_MATCH("type='signal',path_namespace='" ROOT "'") &&
                            ADD_MATCH("type='signal',sender='" BUS "',member='NameOwnerChanged',arg0='" NAME "'") &&
                            fn.g_dbus_connection_add_filter(bus, count_signals, NULL, NULL) > 0);
    return RIZQ_SECRET_OK;
}

void rizq_secret_disconnect(void) {
    if (service != NULL) fn.g_object_unref(service), fn.secret_service_disconnect();
    service = NULL;
}

bool rizq_secret_changes(unsigned *count) {
    *count = atomic_load(&changes);
    return service != NULL && watching;
}

/* The a{ss} of name, value, … */
static GVariant *dictionary(const char *const *pairs) {
    size_t count = 0;
    while (pairs[2 * count] != NULL && pairs[2 * count + 1] != NULL) count++;
    GVariant *entries[count + 1];
    for (size_t index = 0; index < count; index++, pairs += 2) entries[index] = fn.g_variant_new("{ss}", pairs[0], pairs[1]);
    return fn.g_variant_new_array("{ss}", entries, count);
}

/* The secret as the session sends it (encrypted); the plain bytes sit in libsecret's secure memory. */
static GVariant *encoded(const void *bytes, size_t length, bool binary) {
    const char *type = binary ? "application/octet-stream" : "text/plain";
    SecretValue *value = fn.secret_value_new(length > 0 ? bytes : "", (long) length, type);
    GVariant *secret = fn.secret_service_encode_dbus_secret(service, value);
    fn.secret_value_unref(value);
    return secret;
}

rizq_secret_status rizq_secret_search(const char *const *attributes, int timeout_ms, char ***unlocked, char ***locked,
                                      rizq_secret_error *error) {
    return ask(error, NAME, ROOT, SERVICE, "SearchItems", timeout_ms, "(@a{ss})", dictionary(attributes), "(aoao)",
               "(^ao^ao)", unlocked, locked);
}

rizq_secret_status rizq_secret_get_secret(const char *item, int timeout_ms, rizq_secret_value **value, const void **bytes,
                                          size_t *length, rizq_secret_error *error) {
    GError *gerror = NULL;
    fn.g_dbus_proxy_set_default_timeout(service, timeout_ms); /* libsecret's calls take the proxy's */
    SecretValue *secret = fn.secret_service_get_secret_for_dbus_path_sync(service, item, NULL, &gerror);
    if (secret != NULL && gerror != NULL) fn.secret_value_unref(secret), secret = NULL;
    *value = (rizq_secret_value *) secret;
    *bytes = secret != NULL ? fn.secret_value_get(secret, length) : (*length = 0, NULL);
    return gerror == NULL ? RIZQ_SECRET_OK : FAILED(error, gerror);
}

void rizq_secret_value_release(rizq_secret_value *value) { fn.secret_value_unref((SecretValue *) value); }

rizq_secret_status rizq_secret_set_secret(const char *item, const void *bytes, size_t length, bool binary, int timeout_ms,
                                          rizq_secret_error *error) {
    return ask(error, NAME, item, ITEM, "SetSecret", timeout_ms, "(@(oayays))", encoded(bytes, length, binary), NULL, NULL);
}

rizq_secret_status rizq_secret_set_label(const char *item, const char *label, int timeout_ms, rizq_secret_error *error) {
    return ask(error, NAME, item, PROPERTIES, "Set", timeout_ms, "(ssv)", ITEM, "Label", fn.g_variant_new("s", label),
               NULL, NULL);
}

rizq_secret_status rizq_secret_item_attribute(const char *item, const char *name, int timeout_ms, char **value,
                                              rizq_secret_error *error) {
    GVariant *attributes = NULL;
    rizq_secret_status status = ask(error, NAME, item, PROPERTIES, "Get", timeout_ms, "(ss)", ITEM, "Attributes",
                                    "(v)", "(v)", &attributes);
    if (status == RIZQ_SECRET_OK) fn.g_variant_lookup(attributes, name, "s", value), fn.g_variant_unref(attributes);
    return status;
}

rizq_secret_status rizq_secret_create_item(const char *collection, const char *const *attributes, const char *label,
                                           const void *bytes, size_t length, bool binary, bool replace, int timeout_ms,
                                           char **item, char **prompt, rizq_secret_error *error) {
    GVariant *properties[] = {fn.g_variant_new("{sv}", ITEM ".Label", fn.g_variant_new("s", label)),
                              fn.g_variant_new("{sv}", ITEM ".Attributes", dictionary(attributes))};
    return ask(error, NAME, collection, COLLECTION, "CreateItem", timeout_ms, "(@a{sv}@(oayays)b)",
               fn.g_variant_new_array("{sv}", properties, 2), encoded(bytes, length, binary), (int) replace, "(oo)", "(oo)",
               item, prompt);
}

rizq_secret_status rizq_secret_delete(const char *item, int timeout_ms, char **prompt, rizq_secret_error *error) {
    return ask(error, NAME, item, ITEM, "Delete", timeout_ms, "()", "(o)", "(o)", prompt);
}

rizq_secret_status rizq_secret_read_alias(const char *alias, int timeout_ms, char **collection, rizq_secret_error *error) {
    return ask(error, NAME, ROOT, SERVICE, "ReadAlias", timeout_ms, "(s)", alias, "(o)", "(o)", collection);
}

rizq_secret_status rizq_secret_collection_locked(const char *collection, int timeout_ms, bool *locked,
                                                rizq_secret_error *error) {
    GVariant *value = NULL;
    rizq_secret_status status = ask(error, NAME, collection, PROPERTIES, "Get", timeout_ms, "(ss)", COLLECTION, "Locked",
                                    "(v)", "(v)", &value);
    if (status == RIZQ_SECRET_OK) *locked = fn.g_variant_get_boolean(value), fn.g_variant_unref(value);
    return status;
}

rizq_secret_status rizq_secret_set_locked(const char *const *objects, bool lock, int timeout_ms, char ***done, char **prompt,
                                          rizq_secret_error *error) {
    return ask(error, NAME, ROOT, SERVICE, lock ? "Lock" : "Unlock", timeout_ms, "(^ao)", objects, "(aoo)", "(^aoo)",
               done, prompt);
}

rizq_secret_status rizq_secret_prompt(const char *prompt, int timeout_ms, char ***objects, rizq_secret_error *error) {
    GError *gerror = NULL;
    fn.g_dbus_proxy_set_default_timeout(service, timeout_ms); /* libsecret's calls take the proxy's */
    GVariant *result = fn.secret_service_prompt_at_dbus_path_sync(service, prompt, NULL, NULL, &gerror);
    *objects = result != NULL && fn.g_variant_is_of_type(result, "ao") ? fn.g_variant_dup_objv(result, NULL) : NULL;
    if (result != NULL) fn.g_variant_unref(result);
    return gerror == NULL ? RIZQ_SECRET_OK : FAILED(error, gerror);
}
