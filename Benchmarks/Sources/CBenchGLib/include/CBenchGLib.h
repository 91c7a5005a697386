#ifndef RIZQ_CBENCHGLIB_H
#define RIZQ_CBENCHGLIB_H

/*
 * The GLib side of RizqBench: GSettings (the peer) and bare D-Bus calls to gnome-keyring (the
 * floor under secret-get). No GLib types cross this header, so that Swift sees plain C; every
 * call is a thin wrapper, so that what the benchmark times is GLib's own work.
 * A failing call returns 0 or NULL and writes GLib's message into `error` (`error_size` bytes).
 */

#include <stddef.h>
#include <stdint.h>

/* MARK: GSettings */

typedef struct bench_settings bench_settings;

/* The type name of GIO's default settings backend ("DConfSettingsBackend" under dconf). */
const char *bench_settings_backend_name(void);

/* A GSettings object for an installed schema, or NULL when the schema is not installed (GLib
 * itself would abort the process). Its signals go to the calling thread's default context.
 * GLib 2.74 aborts a process whose GSettings object is told of 256 or more of its keys changed
 * at once (gsettings.c: "256 quarks ought to be enough for anybody"): change many keys only
 * while no object of their schema is open (RizqBench uses the dconf tool). */
bench_settings *bench_settings_open(const char *schema_id, char *error, size_t error_size);
void bench_settings_close(bench_settings *settings);

/* g_settings_get_int64 / g_settings_set_int64 (the schema's keys are of type 'x'). */
int64_t bench_settings_get(bench_settings *settings, const char *key);
int bench_settings_set(bench_settings *settings, const char *key, int64_t value);
/* g_settings_sync: returns when every change made so far is written by the backend. */
void bench_settings_sync(void);

/* Runs whatever the default main context has pending (change notifications queued for the
 * objects opened on this thread), without blocking. */
void bench_settings_drain(void);

/* Waits until every change dconf-service made before this call has been announced on the bus:
 * an empty Change call to the service, whose reply it sends after the Notify signals of the
 * changes it handled before (its calls are handled one at a time, and the bus routes one
 * sender's messages in order). A GSettings object opened after it cannot hear of those changes
 * (see GSettingsSuite). Returns 1, or 0 with the error in `error`. */
int bench_dconf_fence(char *error, size_t error_size);

/* MARK: Change listener */

typedef void (*bench_changed_callback)(int64_t value, void *context);
typedef struct bench_listener bench_listener;

/* Opens the schema on a thread of its own, running its own main loop, and calls `callback`
 * there with the key's new value on each "changed::<key>" signal. Returns once it listens. */
bench_listener *bench_listener_start(const char *schema_id, const char *key, bench_changed_callback callback,
                                     void *context, char *error, size_t error_size);
void bench_listener_stop(bench_listener *listener);

/* MARK: D-Bus floor */

/* org.freedesktop.DBus.Peer.Ping to `name` at `path`, on the process's shared session-bus
 * connection (the one libsecret uses). One round trip. */
int bench_bus_ping(const char *name, const char *path, char *error, size_t error_size);

/* Prepares a bare Secret Service read: opens a "plain" session and finds the item whose
 * attributes are service=`service`, account=`account` (untimed). */
int bench_secret_prepare(const char *service, const char *account, char *error, size_t error_size);
/* One org.freedesktop.Secret.Service.GetSecrets call for the prepared item: the one round trip
 * every read must make. Returns the secret's length, or -1. */
long bench_secret_get(char *error, size_t error_size);
/* The same item read through libsecret on the calling thread, as RizqSecrets' shim reads it
 * (secret_service_get_secret_for_dbus_path_sync on the process's shared SecretService, in its
 * encrypted session), without RizqSecrets' worker thread: what libsecret adds to the bare call.
 * Returns the secret's length, or -1. */
long bench_libsecret_get(char *error, size_t error_size);

/* MARK: libsecret's file backend (the peer of file-keyring-get and file-keyring-set) */

/* Selects libsecret's file backend for this process, on the keyring at `path` with `password`
 * (SECRET_BACKEND=file, SECRET_FILE_TEST_PATH, SECRET_FILE_TEST_PASSWORD, as its own tests do),
 * and makes libsecret load it (untimed). Call before any other libsecret use in the process:
 * its backend is a process-wide singleton. */
int bench_file_keyring_prepare(const char *path, const char *password, char *error, size_t error_size);
/* secret_password_lookup_binary_sync of the item with service=`service`, account=`account`
 * (a schema with just those attributes, not matched by name): the secret's length, or -1. */
long bench_file_keyring_lookup(const char *service, const char *account, char *error, size_t error_size);
/* secret_password_store_binary_sync of `length` bytes for those attributes (libsecret rewrites
 * the whole file: a temporary file, fsync, a backup link, rename). */
int bench_file_keyring_store(const char *service, const char *account, const void *secret, size_t length, char *error,
                             size_t error_size);

#endif
