#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RizqCore

/// A failed kernel key-retention call (`add_key`, `keyctl`), in the manner of swift-system's
/// `Errno`: the operation and the raw error number, with the numbers that mean something here
/// named. Internal: a failure to cache reaches callers as
/// ``VaultUnlockReport/cacheFailure`` and ``VaultUnlockReport/cacheFailureCode``, never thrown
/// past the vault.
struct KernelKeyringError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which call failed.
    enum Operation: String, Sendable {
        /// `add_key(2)`.
        case addKey = "add_key"
        /// `KEYCTL_SEARCH`.
        case search = "keyctl search"
        /// `KEYCTL_READ`.
        case read = "keyctl read"
        /// `KEYCTL_SETPERM`.
        case setPermissions = "keyctl setperm"
        /// `KEYCTL_SET_TIMEOUT`.
        case setTimeout = "keyctl timeout"
        /// `KEYCTL_INVALIDATE`.
        case invalidate = "keyctl invalidate"
        /// `KEYCTL_GET_PERSISTENT`.
        case getPersistent = "keyctl get_persistent"
    }

    /// The call.
    var operation: Operation
    /// The raw `errno`.
    var code: Int32

    /// An error from a call and its `errno`.
    init(_ operation: Operation, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `EPERM`: refused, typically by a seccomp filter (Docker's default profile refuses
    /// `add_key` and `keyctl`).
    static let notPermitted = EPERM
    /// `ENOSYS`: the kernel has no key-retention service, or a filter hides the call.
    static let notImplemented = ENOSYS
    /// `EOPNOTSUPP`: e.g. no persistent keyrings in this kernel.
    static let notSupported = EOPNOTSUPP
    /// `ENOKEY`: no such key.
    static let noKey = ENOKEY
    /// `EKEYEXPIRED`: the key's time-out passed.
    static let keyExpired = EKEYEXPIRED
    /// `EKEYREVOKED`: the key or keyring was revoked (e.g. an SSH session keyring after logout).
    static let keyRevoked = EKEYREVOKED
    /// `EACCES`: the key's permissions do not allow it.
    static let accessDenied = EACCES
    /// `EDQUOT`: this user's key quota (`/proc/sys/kernel/keys/maxkeys`, `maxbytes`) is full.
    static let quotaExceeded = EDQUOT

    /// The call is refused or missing in this environment: the vault works without the cache.
    var isUnavailable: Bool {
        code == Self.notPermitted || code == Self.notImplemented || code == Self.notSupported
    }

    /// The key is simply not there (absent, expired, revoked): not an error for a lookup.
    var isAbsent: Bool {
        code == Self.noKey || code == Self.keyExpired || code == Self.keyRevoked
    }

    /// The call, the errno's name and text, and what it means here.
    var description: String {
        let meaning: String
        switch code {
        case Self.notPermitted, Self.notImplemented:
            meaning = "; the kernel keyring is refused here (a container's seccomp profile?): the vault works without the cache, unlocking through its slots on each start"
        case Self.quotaExceeded:
            meaning = "; this user's kernel key quota is full (see /proc/key-users): remove unused keys"
        default:
            meaning = ""
        }
        return "\(operation.rawValue) failed: \(Errno(rawValue: code).description) (errno \(code))\(meaning)"
    }
}
#endif
