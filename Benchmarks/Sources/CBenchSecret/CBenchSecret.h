/* The path calls (secret-paths.h) are "subject to change" in libsecret's words; RizqSecrets'
 * shim uses them too. */
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
