#if Secrets
import CSecretShim
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A client of the Secret portal (`org.freedesktop.portal.Secret`): how a sandboxed app gets the
/// master secret its file keyring is keyed with, without seeing the host's keyring.
///
/// The protocol, as libsecret 0.21 and the portal's specification have it:
///
/// 1. the portal's `version` property must be at least 1;
/// 2. the client picks a `handle_token`, predicts the Request's path
///    (`/org/freedesktop/portal/desktop/request/<its unique name, ':' dropped, '.' → '_'>/<token>`)
///    and subscribes to that Request's `Response` signal *before* calling, from the portal's
///    own connection only;
/// 3. it calls `RetrieveSecret(h fd, {handle_token})` with the write end of a pipe, and closes its
///    own copy of that end;
/// 4. it waits for `Response(u code, a{sv} results)` until the deadline (then it closes the
///    Request): 0 — the secret is in the pipe; 1 — the user cancelled; 2 — the backend failed
///    (on GNOME: the login keyring is locked, or gnome-keyring is not running);
/// 5. it reads what the pipe holds, without waiting for its end (another copy of the write
///    end may stay open): at least 64 bytes, of which the first 64 are the secret, as libsecret
///    takes them (gnome-keyring writes exactly 64).
///
/// The D-Bus steps are CSecretShim's (`RizqSecretPortal.h`: GIO loaded with dlopen, a private
/// connection, a main context of its own); what they mean is decided here. The secret is kept
/// for the life of the process (``masterSecret(timeout:)``) in a ``FileKeyringPassword``: locked,
/// zeroed memory, never written anywhere.
package enum SecretPortal {
    /// How many bytes of the pipe are the secret: libsecret's 64 (gnome-keyring writes 64).
    package static let secretSize = 64

    /// The secret of this process, fetched once and kept; a failure is not kept (the next call
    /// asks again). Concurrent callers wait for one fetch.
    package static func masterSecret(timeout: Double) throws(SecretPortalFailure) -> FileKeyringPassword {
        try cached.withLock { (secret: inout FileKeyringPassword?) throws(SecretPortalFailure) -> FileKeyringPassword in
            if let secret { return secret }
            let fetched = try retrieveSecret(timeout: timeout)
            secret = fetched
            return fetched
        }
    }

    /// Whether this process holds the portal's secret already.
    package static var hasCachedSecret: Bool { cached.withLock { $0 != nil } }

    /// Forgets the kept secret (its memory is zeroed when the last user lets go).
    package static func forgetCachedSecret() {
        cached.withLock { $0 = nil }
    }

    private static let cached = Mutex<FileKeyringPassword?>(nil)

    /// One fetch, through every step above, within `timeout` seconds in all.
    package static func retrieveSecret(timeout: Double) throws(SecretPortalFailure) -> FileKeyringPassword {
        let deadline = DispatchTime.now() + timeout
        func remaining() -> Int32 {
            let left = Int64(deadline.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)
            return Int32(clamping: max(left / 1_000_000, 1))
        }
        guard hasSessionBus() else {
            throw .noSessionBus(detail: "neither DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR/bus is set up")
        }
        var request: OpaquePointer?
        var uniqueName: UnsafeMutablePointer<CChar>?
        var owner: UnsafeMutablePointer<CChar>?
        var error = rizq_secret_error()
        let opened = rizq_portal_open(remaining(), &request, &uniqueName, &owner, &error)
        defer {
            free(uniqueName)
            free(owner)
            rizq_portal_release(request)
        }
        guard opened == RIZQ_SECRET_OK, let request, let uniqueName else { throw failure(opening: opened, error) }

        var version: UInt32 = 0
        guard rizq_portal_version(request, remaining(), &version, &error) == RIZQ_SECRET_OK else {
            throw .noSecretInterface(detail: GLibError(error).message)
        }
        guard version >= 1 else { throw .noSecretInterface(detail: "its version property is \(version), not 1 or later") }

        let token = "rizq" + String(UInt64.random(in: .min ... .max), radix: 16)
        let predicted = requestPath(uniqueName: String(cString: uniqueName), token: token)
        rizq_portal_listen(request, predicted)

        var ends: [Int32] = [-1, -1]
        guard rizq_portal_pipe(&ends) == 0 else { throw .callFailed(detail: "no pipe for the secret: \(Errno.current)") }
        let readEnd = ends[0]
        defer { close(readEnd) }
        var handle: UnsafeMutablePointer<CChar>?
        let called = rizq_portal_retrieve_secret(request, ends[1], token, remaining(), &handle, &error)
        // The message carried its own copy; only the portal may hold the write end now.
        close(ends[1])
        defer { free(handle) }
        guard called == RIZQ_SECRET_OK, let handle else { throw failure(calling: GLibError(error)) }
        let path = String(cString: handle)
        // An older portal ignores handle_token: follow the path it gave instead.
        if path != predicted { rizq_portal_listen(request, path) }

        var response: UInt32 = 0
        var resultsCount: UInt32 = 0
        guard rizq_portal_wait(request, remaining(), &response, &resultsCount) else {
            rizq_portal_close_request(request, path, 1000)
            throw .noResponse(seconds: timeout)
        }
        switch response {
        case 0: return try readSecret(readEnd)
        case 1: throw .cancelled
        case 2: throw .backendFailed
        default: throw .unexpectedResponse(response)
        }
    }

    /// The Request path the portal makes for `token` on the connection `uniqueName`.
    package static func requestPath(uniqueName: String, token: String) -> String {
        let sender = uniqueName.drop { $0 == ":" }.replacingOccurrences(of: ".", with: "_")
        return "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
    }

    /// The first 64 bytes of the pipe, read without waiting: the backend writes the secret
    /// before it answers, and the portal sends `Response` after that, so what the pipe holds
    /// now is all there is — its end may never come, as the portal (and the message that
    /// carried the descriptor) can keep a copy of the write end open. Fewer than 64 is
    /// ``SecretPortalFailure/shortSecret(count:)``.
    private static func readSecret(_ descriptor: Int32) throws(SecretPortalFailure) -> FileKeyringPassword {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return try withUnsafeTemporaryAllocation(byteCount: secretSize, alignment: 16) { (buffer) throws(SecretPortalFailure) -> FileKeyringPassword in
            defer { if let start = buffer.baseAddress { explicit_bzero(start, buffer.count) } }
            guard let start = buffer.baseAddress else { throw .shortSecret(count: 0) }
            var count = 0
            while count < secretSize {
                let got = read(descriptor, start + count, secretSize - count)
                if got > 0 {
                    count += got
                } else if got < 0, errno == EINTR {
                    continue
                } else if got == 0 || errno == EAGAIN {
                    break  // the end, or nothing more there
                } else {
                    throw .callFailed(detail: "reading the secret's pipe failed: \(Errno.current)")
                }
            }
            guard count == secretSize, let password = FileKeyringPassword(copying: UnsafeRawBufferPointer(rebasing: buffer[..<count])) else {
                throw .shortSecret(count: count)
            }
            return password
        }
    }

    /// Whether a session bus can be reached without GIO trying to start one (`autolaunch`).
    private static func hasSessionBus() -> Bool {
        if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 { return true }
        guard let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 else { return false }
        var info = stat()
        return stat(String(cString: runtime) + "/bus", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    private static func failure(opening status: rizq_secret_status, _ error: rizq_secret_error) -> SecretPortalFailure {
        let glib = GLibError(error)
        switch status {
        case RIZQ_SECRET_NO_LIBRARY: return .gioMissing(detail: glib.message)
        case RIZQ_SECRET_NO_SYMBOL: return .gioMissing(detail: "it lacks \(glib.message)")
        default:
            if glib.dbusName == "org.freedesktop.DBus.Error.NameHasNoOwner" { return .portalNotRunning(detail: glib.message) }
            if glib.domain == "g-io-error-quark" || glib.dbusName.isEmpty { return .noSessionBus(detail: glib.message) }
            return .callFailed(detail: glib.dbusName + ": " + glib.message)
        }
    }

    private static func failure(calling glib: GLibError) -> SecretPortalFailure {
        switch glib.dbusName {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .portalNotRunning(detail: glib.message)
        case "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface":
            return .noSecretInterface(detail: glib.message)
        default:
            if glib.codeName == "timed-out" || glib.codeName == "timeout" || glib.codeName == "no-reply" {
                return .callFailed(detail: "the portal did not answer RetrieveSecret in time: " + glib.message)
            }
            return .callFailed(detail: (glib.dbusName.isEmpty ? "" : glib.dbusName + ": ") + glib.message)
        }
    }
}
#endif
