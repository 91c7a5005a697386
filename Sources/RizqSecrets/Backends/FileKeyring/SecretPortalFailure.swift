#if Secrets
/// Why the Secret portal gave no master secret (``SecretPortal``): each message says what
/// happened and what to do.
package enum SecretPortalFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// GIO (`libgio-2.0.so.0`), loaded at run time, is missing or too old.
    case gioMissing(detail: String)
    /// There is no session bus to reach the portal through.
    case noSessionBus(detail: String)
    /// Nothing owns `org.freedesktop.portal.Desktop`: xdg-desktop-portal is not running.
    case portalNotRunning(detail: String)
    /// The portal has no Secret interface (or a `version` below 1).
    case noSecretInterface(detail: String)
    /// `RetrieveSecret`, or a step around it, failed.
    case callFailed(detail: String)
    /// Response 1: the user cancelled.
    case cancelled
    /// Response 2: the portal's backend gave no secret.
    case backendFailed
    /// A response code the specification does not have.
    case unexpectedResponse(UInt32)
    /// No `Response` came before the deadline.
    case noResponse(seconds: Double)
    /// The pipe held fewer than 64 bytes when the portal answered (libsecret refuses those too).
    case shortSecret(count: Int)

    /// One line: the cause and the fix.
    package var description: String {
        switch self {
        case .gioMissing(let detail):
            return "GIO (libgio-2.0.so.0) could not be loaded to ask the Secret portal (\(detail)); the Flatpak runtime provides it: use a GNOME or freedesktop runtime"
        case .noSessionBus(let detail):
            return "no D-Bus session bus to reach the Secret portal (\(detail)); give the app --socket=session-bus, or run it in a desktop session"
        case .portalNotRunning(let detail):
            return "xdg-desktop-portal is not running on the session bus (\(detail)); install and start it on the host (xdg-desktop-portal, with a Secret backend such as gnome-keyring)"
        case .noSecretInterface(let detail):
            return "the desktop portal has no Secret interface (\(detail)); install a portal backend that provides org.freedesktop.impl.portal.Secret (gnome-keyring's)"
        case .callFailed(let detail):
            return "the Secret portal's RetrieveSecret failed: \(detail)"
        case .cancelled:
            return "the Secret portal's request was cancelled by the user; try again and allow it"
        case .backendFailed:
            return "the Secret portal's backend gave no secret (response 2): on GNOME the login keyring is locked (unlock it: log in, or `printf PASSWORD | gnome-keyring-daemon --unlock --components=secrets`) or gnome-keyring is not running on the host"
        case .unexpectedResponse(let code):
            return "the Secret portal answered with response \(code), which the specification does not have"
        case .noResponse(let seconds):
            return "the Secret portal gave no secret within \(seconds) s; check that its backend (gnome-keyring) is not frozen or waiting on a prompt, then try again"
        case .shortSecret(let count):
            return "the Secret portal gave a secret of \(count) bytes, fewer than the 64 a file keyring's key is derived from; its backend is not one libsecret can use either"
        }
    }
}
#endif
