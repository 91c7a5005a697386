#ifndef RIZQ_CSECRETSHIM_H
#define RIZQ_CSECRETSHIM_H
/* Placeholder until the secrets issue lands its shim. */
int rizq_secret_shim_version(void);
#endif
