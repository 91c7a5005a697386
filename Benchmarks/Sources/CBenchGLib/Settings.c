/* GSettings for RizqBench: the peer of SuiteStore. See CBenchGLib.h. */
#include "CBenchGLib.h"

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gio.h>
#include <gio/gsettingsbackend.h>

struct bench_settings {
    GSettings *settings;
};

static void put_error(char *error, size_t error_size, const char *message) {
    if (error != NULL && error_size > 0) {
        g_strlcpy(error, message, error_size);
    }
}

static void take_error(GError *gerror, char *error, size_t error_size) {
    put_error(error, error_size, gerror != NULL ? gerror->message : "unknown GLib error");
    g_clear_error(&gerror);
}

const char *bench_settings_backend_name(void) {
    GSettingsBackend *backend = g_settings_backend_get_default();
    const char *name = G_OBJECT_TYPE_NAME(backend); /* static: the type's name outlives the object */
    g_object_unref(backend);
    return name;
}

/* g_settings_new aborts the process on a schema that is not installed: look it up first. */
static GSettings *new_settings(const char *schema_id, char *error, size_t error_size) {
    GSettingsSchemaSource *source = g_settings_schema_source_get_default();
    GSettingsSchema *schema = source != NULL ? g_settings_schema_source_lookup(source, schema_id, TRUE) : NULL;
    if (schema == NULL) {
        gchar *message = g_strdup_printf("GSettings schema %s is not installed (GSETTINGS_SCHEMA_DIR=%s)", schema_id,
                                         g_getenv("GSETTINGS_SCHEMA_DIR") ? g_getenv("GSETTINGS_SCHEMA_DIR") : "");
        put_error(error, error_size, message);
        g_free(message);
        return NULL;
    }
    GSettings *settings = g_settings_new_full(schema, NULL, NULL);
    g_settings_schema_unref(schema);
    return settings;
}

bench_settings *bench_settings_open(const char *schema_id, char *error, size_t error_size) {
    GSettings *settings = new_settings(schema_id, error, error_size);
    if (settings == NULL) {
        return NULL;
    }
    bench_settings *result = g_new0(bench_settings, 1);
    result->settings = settings;
    return result;
}

void bench_settings_close(bench_settings *settings) {
    if (settings == NULL) {
        return;
    }
    g_object_unref(settings->settings);
    g_free(settings);
}

int64_t bench_settings_get(bench_settings *settings, const char *key) {
    return g_settings_get_int64(settings->settings, key);
}

int bench_settings_set(bench_settings *settings, const char *key, int64_t value) {
    return g_settings_set_int64(settings->settings, key, value) ? 1 : 0;
}

void bench_settings_sync(void) {
    g_settings_sync();
}

void bench_settings_drain(void) {
    while (g_main_context_iteration(NULL, FALSE)) {
    }
}

int bench_dconf_fence(char *error, size_t error_size) {
    GError *gerror = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &gerror);
    if (bus == NULL) {
        take_error(gerror, error, error_size);
        return 0;
    }
    /* An empty changeset (a{smv} with no entries serialises to no bytes): the service answers
     * it with a tag and changes nothing. */
    GVariant *empty = g_variant_new_from_data(G_VARIANT_TYPE_BYTESTRING, "", 0, TRUE, NULL, NULL);
    GVariant *reply = g_dbus_connection_call_sync(bus, "ca.desrt.dconf", "/ca/desrt/dconf/Writer/user", "ca.desrt.dconf.Writer",
                                                  "Change", g_variant_new_tuple(&empty, 1), G_VARIANT_TYPE("(s)"),
                                                  G_DBUS_CALL_FLAGS_NONE, -1, NULL, &gerror);
    g_object_unref(bus);
    if (reply == NULL) {
        take_error(gerror, error, error_size);
        return 0;
    }
    g_variant_unref(reply);
    return 1;
}

/* MARK: Change listener */

struct bench_listener {
    GThread *thread;
    GMainContext *context;
    GMainLoop *loop;
    gchar *schema_id;
    gchar *key;
    bench_changed_callback callback;
    void *callback_context;
    /* Set by the thread once it listens (or failed to); guarded by `lock`. */
    GMutex lock;
    GCond started;
    int state; /* 0 starting, 1 listening, -1 failed */
    gchar *failure;
};

static void on_changed(GSettings *settings, const gchar *key, gpointer data) {
    bench_listener *listener = data;
    listener->callback(g_settings_get_int64(settings, key), listener->callback_context);
}

static gpointer listen_thread(gpointer data) {
    bench_listener *listener = data;
    g_main_context_push_thread_default(listener->context);
    char message[512] = "";
    GSettings *settings = new_settings(listener->schema_id, message, sizeof message);
    gulong handler = 0;
    if (settings != NULL) {
        gchar *signal = g_strconcat("changed::", listener->key, NULL);
        handler = g_signal_connect(settings, signal, G_CALLBACK(on_changed), listener);
        g_free(signal);
        /* GSettings only watches a key for changes made elsewhere once it has read it. */
        (void) g_settings_get_int64(settings, listener->key);
    }
    g_mutex_lock(&listener->lock);
    listener->state = settings != NULL ? 1 : -1;
    listener->failure = settings != NULL ? NULL : g_strdup(message);
    g_cond_signal(&listener->started);
    g_mutex_unlock(&listener->lock);
    if (settings != NULL) {
        g_main_loop_run(listener->loop);
        g_signal_handler_disconnect(settings, handler);
        g_object_unref(settings);
    }
    g_main_context_pop_thread_default(listener->context);
    return NULL;
}

bench_listener *bench_listener_start(const char *schema_id, const char *key, bench_changed_callback callback,
                                     void *context, char *error, size_t error_size) {
    bench_listener *listener = g_new0(bench_listener, 1);
    listener->context = g_main_context_new();
    listener->loop = g_main_loop_new(listener->context, FALSE);
    listener->schema_id = g_strdup(schema_id);
    listener->key = g_strdup(key);
    listener->callback = callback;
    listener->callback_context = context;
    g_mutex_init(&listener->lock);
    g_cond_init(&listener->started);
    listener->thread = g_thread_new("bench-gsettings-listener", listen_thread, listener);
    g_mutex_lock(&listener->lock);
    while (listener->state == 0) {
        g_cond_wait(&listener->started, &listener->lock);
    }
    g_mutex_unlock(&listener->lock);
    if (listener->state < 0) {
        put_error(error, error_size, listener->failure);
        bench_listener_stop(listener);
        return NULL;
    }
    return listener;
}

static gboolean quit_loop(gpointer data) {
    g_main_loop_quit(data);
    return G_SOURCE_REMOVE;
}

void bench_listener_stop(bench_listener *listener) {
    if (listener == NULL) {
        return;
    }
    g_main_context_invoke(listener->context, quit_loop, listener->loop);
    g_thread_join(listener->thread);
    g_main_loop_unref(listener->loop);
    g_main_context_unref(listener->context);
    g_mutex_clear(&listener->lock);
    g_cond_clear(&listener->started);
    g_free(listener->schema_id);
    g_free(listener->key);
    g_free(listener->failure);
    g_free(listener);
}
