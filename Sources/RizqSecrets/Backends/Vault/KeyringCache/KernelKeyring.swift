#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CKernelKeyring

/// The few kernel key-retention operations the identity cache needs, over the C shim
/// (`CKernelKeyring`); each turns `-1`/`errno` into a ``KernelKeyringError``.
enum KernelKeyring {
    /// `@u`: the user keyring, shared by every process of this uid.
    static let userKeyring: Int32 = RIZQ_KEY_SPEC_USER_KEYRING
    static let processKeyring: Int32 = RIZQ_KEY_SPEC_PROCESS_KEYRING

    /// possessor and user: view, read, search, nothing else: no write, link or setattr, so the
    /// key can be neither changed nor re-linked; groups and others: nothing.
    static let cachePermissions: UInt32 =
        RIZQ_KEY_POS_VIEW | RIZQ_KEY_POS_READ | RIZQ_KEY_POS_SEARCH | RIZQ_KEY_USR_VIEW | RIZQ_KEY_USR_READ | RIZQ_KEY_USR_SEARCH

    /// This uid's persistent keyring (survives logouts, not reboots), linked into the process
    /// keyring so that this process possesses it.
    static func persistentKeyring() throws(KernelKeyringError) -> Int32 {
        let id = rizq_keyctl_get_persistent(-1, processKeyring)
        guard id >= 0 else { throw KernelKeyringError(.getPersistent, code: errno) }
        return Int32(id)
    }

    static func add(description: String, payload: [UInt8], keyring: Int32) throws(KernelKeyringError) -> Int32 {
        let id = payload.withUnsafeBytes { rizq_add_key("user", description, $0.baseAddress, $0.count, keyring) }
        guard id >= 0 else { throw KernelKeyringError(.addKey, code: errno) }
        return id
    }

    /// The `user` key with `description` reachable from `keyring`, or `nil` when there is none
    /// (absent, expired or revoked).
    static func search(keyring: Int32, description: String) throws(KernelKeyringError) -> Int32? {
        let id = rizq_keyctl_search(keyring, "user", description, 0)
        if id >= 0 { return id }
        let error = KernelKeyringError(.search, code: errno)
        if error.isAbsent { return nil }
        throw error
    }

    static func read(_ key: Int32, maximumLength: Int = 4096) throws(KernelKeyringError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let count = buffer.withUnsafeMutableBytes { rizq_keyctl_read(key, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw KernelKeyringError(.read, code: errno) }
        guard count <= maximumLength else { throw KernelKeyringError(.read, code: EMSGSIZE) }
        let payload = Array(buffer[0..<count])
        // The buffer held the identity: clear it before it is released.
        for index in buffer.indices { buffer[index] = 0 }
        return payload
    }

    static func setPermissions(_ key: Int32, _ permissions: UInt32) throws(KernelKeyringError) {
        guard rizq_keyctl_setperm(key, permissions) == 0 else { throw KernelKeyringError(.setPermissions, code: errno) }
    }

    static func setTimeout(_ key: Int32, seconds: UInt32) throws(KernelKeyringError) {
        guard rizq_keyctl_set_timeout(key, seconds) == 0 else { throw KernelKeyringError(.setTimeout, code: errno) }
    }

    static func invalidate(_ key: Int32) throws(KernelKeyringError) {
        guard rizq_keyctl_invalidate(key) == 0 else { throw KernelKeyringError(.invalidate, code: errno) }
    }
}
#endif
