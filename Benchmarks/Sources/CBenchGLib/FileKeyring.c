/* libsecret's file backend through its own API, for RizqBench: the peer of file-keyring-get and
 * file-keyring-set. See CBenchGLib.h. */
#include "CBenchGLib.h"

#include <stdlib.h>
#include <gio/gio.h>
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>

static const SecretSchema schema = {
    "org.rizq.Prefs.Secret", SECRET_SCHEMA_DONT_MATCH_NAME,
    {{"service", SECRET_SCHEMA_ATTRIBUTE_STRING}, {"account", SECRET_SCHEMA_ATTRIBUTE_STRING}, {NULL, 0}}};

static void report(GError *gerror, char *error, size_t error_size) {
    if (error != NULL && error_size > 0) g_strlcpy(error, gerror != NULL ? gerror->message : "unknown libsecret error", error_size);
    g_clear_error(&gerror);
}

int bench_file_keyring_prepare(const char *path, const char *password, char *error, size_t error_size) {
    setenv("SECRET_BACKEND", "file", 1);
    setenv("SECRET_FILE_TEST_PATH", path, 1);
    setenv("SECRET_FILE_TEST_PASSWORD", password, 1);
    GError *gerror = NULL;
    /* The first call makes the backend: it reads the file and derives the key, once. */
    SecretValue *value = secret_password_lookup_binary_sync(&schema, NULL, &gerror, "service", "bench-none", "account", "none", NULL);
    if (value != NULL) secret_value_unref(value);
    if (gerror != NULL) {
        report(gerror, error, error_size);
        return 0;
    }
    return 1;
}

long bench_file_keyring_lookup(const char *service, const char *account, char *error, size_t error_size) {
    GError *gerror = NULL;
    SecretValue *value = secret_password_lookup_binary_sync(&schema, NULL, &gerror, "service", service, "account", account, NULL);
    if (value == NULL) {
        report(gerror, error, error_size);
        return -1;
    }
    gsize length = 0;
    secret_value_get(value, &length);
    secret_value_unref(value);
    return (long) length;
}

int bench_file_keyring_store(const char *service, const char *account, const void *secret, size_t length, char *error,
                             size_t error_size) {
    GError *gerror = NULL;
    SecretValue *value = secret_value_new(secret, (gssize) length, "text/plain");
    gboolean stored = secret_password_store_binary_sync(&schema, SECRET_COLLECTION_DEFAULT, "bench", value, NULL, &gerror,
                                                        "service", service, "account", account, NULL);
    secret_value_unref(value);
    if (!stored) {
        report(gerror, error, error_size);
        return 0;
    }
    return 1;
}
