#if Secrets
/// What ``VaultSecretStore/unlock(timeout:)`` did: which slot opened the vault, and whether the
/// identity is now cached in the kernel keyring (and if not, why).
public struct VaultUnlockReport: Sendable, Equatable {
    /// The slot that gave the identity.
    public var source: VaultKeySource
    /// Whether the identity is cached in the kernel keyring.
    public var isCached: Bool
    /// The keyring holding it: `persistent` (outlives logouts) or `user` (`@u`).
    public var keyring: String?
    /// The cached key's serial number (as `keyctl` and `/proc/keys` show it).
    public var keySerial: Int32?
    /// How long it stays cached, in seconds.
    public var timeoutSeconds: UInt32
    /// Why it could not be cached (e.g. `EPERM` from a container's seccomp profile): the kernel
    /// keyring call, its errno's name and number, and what that means here. The vault works
    /// without the cache, unlocking through its slots in each new process.
    public var cacheFailure: String?
    /// The raw `errno` of the kernel keyring call that failed, when caching failed.
    public var cacheFailureCode: Int32?

    /// A report from its parts.
    init(source: VaultKeySource, isCached: Bool, keyring: String?, keySerial: Int32?, timeoutSeconds: UInt32, cacheFailure: KernelKeyringError?) {
        self.source = source
        self.isCached = isCached
        self.keyring = keyring
        self.keySerial = keySerial
        self.timeoutSeconds = timeoutSeconds
        self.cacheFailure = cacheFailure?.description
        self.cacheFailureCode = cacheFailure?.code
    }

    /// One line for a person.
    public var summary: String {
        if isCached {
            return "unlocked with \(source.rawValue); the key is cached in the \(keyring ?? "user") keyring for \(timeoutSeconds) s (until then, or `secret lock`, or a reboot)"
        }
        return "unlocked with \(source.rawValue); not cached (\(cacheFailure ?? "the kernel-keyring cache is off")): each new process unlocks through its slots"
    }
}
#endif
