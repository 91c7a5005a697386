#include "CSecretShim.h"
#include <libsecret/secret.h>
int rizq_secret_shim_version(void) { return 0; }
