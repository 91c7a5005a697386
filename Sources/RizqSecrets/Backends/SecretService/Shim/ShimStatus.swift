#if Secrets
import CSecretShim

/// What a call of the C shim reports, as swift-system's `Errno` gives C's error numbers a type
/// and a documented name each: the shim's `rizq_secret_status`, which says what happened and
/// decides nothing. ``SecretServiceFailure/init(status:error:)`` gives it its meaning.
struct ShimStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C enum's value.
    var rawValue: rizq_secret_status.RawValue

    init(rawValue: rizq_secret_status.RawValue) {
        self.rawValue = rawValue
    }

    /// The status a shim call returned.
    init(_ status: rizq_secret_status) {
        rawValue = status.rawValue
    }

    /// The call did what it says; its out-parameters hold the answer.
    static let ok = ShimStatus(RIZQ_SECRET_OK)

    /// GLib, libsecret or the service reported an error, which the shim's error holds by its
    /// names (``GLibError``).
    static let failed = ShimStatus(RIZQ_SECRET_FAILED)

    /// `libsecret-1.so.0` could not be opened: Debian's `libsecret-1-0` is not installed (or
    /// the loader could not read it); the message is `dlerror()`'s.
    static let noLibrary = ShimStatus(RIZQ_SECRET_NO_LIBRARY)

    /// The libsecret that was found lacks a function the shim calls (older than 0.18); the
    /// message names the function.
    static let noSymbol = ShimStatus(RIZQ_SECRET_NO_SYMBOL)

    /// The service answered, but opening the encrypted session (`Service.OpenSession`, which
    /// libsecret negotiates on connecting) failed; the shim's error says why.
    static let noSession = ShimStatus(RIZQ_SECRET_NO_SESSION)

    var description: String {
        switch self {
        case .ok: return "ok"
        case .failed: return "failed"
        case .noLibrary: return "no library"
        case .noSymbol: return "no symbol"
        case .noSession: return "no session"
        default: return "status \(rawValue)"
        }
    }
}
#endif
