#if Secrets
import RizqCore

extension SecretError {
    /// Whether this error means "this backend is not there", which a chain skips, rather than "it
    /// is there and failing", which a chain reports: no session bus, no Secret Service provider,
    /// no libsecret. The one answer every backend's probe and the chain's reads share.
    var isAbsence: Bool {
        switch self {
        case .noSessionBus, .serviceUnavailable, .libsecretMissing: return true
        default: return false
        }
    }
}
#endif
