#ifndef RIZQ_SECRET_PORTAL_H
#define RIZQ_SECRET_PORTAL_H

/*
 * The few GIO calls of a client of the Secret portal (org.freedesktop.portal.Secret), each doing
 * one D-Bus step and deciding nothing: the token, the request path, what a response code means,
 * how much of the pipe to read and when to give up are RizqSecrets' Swift
 * (FileKeyring/SecretPortal.swift).
 *
 * GIO is not linked: the first rizq_portal_open loads libgio-2.0.so.0 with dlopen and looks up
 * the functions below once (the way CSecretShim.c loads libsecret; CSecretShim.h says why). It
 * needs no libsecret. Each request has a private connection to the session bus (never GLib's
 * shared one, which would end the process if the bus went away) and a main context of its own,
 * where its Response signal is delivered. One thread at a time per request.
 */

#include "CSecretShim.h"
#include <stdbool.h>

/* A connection, its main context and the subscription to one Request's Response signal. */
typedef struct rizq_portal_request rizq_portal_request;

/* Loads GIO (once per process), connects to the session bus, and asks the bus who owns
 * org.freedesktop.portal.Desktop: *unique_name is this connection's name, *portal_owner the
 * portal's (both the caller's, to free()). A portal that is not running fails here
 * (org.freedesktop.DBus.Error.NameHasNoOwner in error->dbus_name). */
rizq_secret_status rizq_portal_open(int timeout_ms, rizq_portal_request **request, char **unique_name, char **portal_owner,
                                    rizq_secret_error *error);
/* Properties.Get of org.freedesktop.portal.Secret's version (0 when it is not a uint32). */
rizq_secret_status rizq_portal_version(rizq_portal_request *request, int timeout_ms, unsigned *version, rizq_secret_error *error);
/* Subscribes to org.freedesktop.portal.Request.Response on `handle`, sent by the portal's owner
 * only; replaces an earlier subscription of the request. */
void rizq_portal_listen(rizq_portal_request *request, const char *handle);
/* Secret.RetrieveSecret(h fd, {"handle_token": token}): `fd` (the write end of a pipe) is
 * duplicated into the message and the duplicate closed once the call is answered; *handle is the
 * Request object's path the portal answered with (the caller's, to free()). */
rizq_secret_status rizq_portal_retrieve_secret(rizq_portal_request *request, int fd, const char *token, int timeout_ms,
                                               char **handle, rizq_secret_error *error);
/* Runs the request's main context until the Response arrives or timeout_ms pass: true with
 * *response (and *results_count, the number of entries of its results) when it arrived. */
bool rizq_portal_wait(rizq_portal_request *request, int timeout_ms, unsigned *response, unsigned *results_count);
/* Request.Close on `handle` (the answer, if any, is not looked at). */
void rizq_portal_close_request(rizq_portal_request *request, const char *handle, int timeout_ms);
/* pipe2(fds, O_CLOEXEC), which Swift's Glibc module does not declare: 0, or -1 with errno. */
int rizq_portal_pipe(int fds[2]);
/* Unsubscribes, closes the connection and frees the request. */
void rizq_portal_release(rizq_portal_request *request);

#endif
