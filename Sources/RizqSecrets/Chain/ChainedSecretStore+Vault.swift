#if Secrets
import Foundation
import RizqCore

/// Unlocking the vault once for every process of the user, and locking it again.
extension ChainedSecretStore {
    /// What ``unlockVault(timeout:)`` did.
    public struct VaultUnlock: Sendable, Equatable {
        /// Which slot opened the vault, and whether the key is now cached in the kernel keyring.
        public var report: VaultUnlockReport
        /// Whether the vault was made by this call (it had none).
        public var created: Bool
        /// Whether the vault became the remembered write target (nothing had chosen one).
        public var becameWriteTarget: Bool
    }

    /// Unlocks the service's vault through its slots and caches the key in the kernel keyring
    /// for `timeout` (``VaultSecretStore/unlock(timeout:)``). A service that has no vault yet
    /// gets one, with every slot that can be made now (with
    /// ``SecretStoreConfiguration/asksOnTerminal``, a passphrase typed on the terminal) — unless
    /// its writes already go elsewhere (a set order, or a remembered Secret Service); a vault made
    /// here becomes the remembered write target when nothing had chosen one.
    public func unlockVault(timeout: Duration = .seconds(8 * 3600)) throws(SecretError) -> VaultUnlock {
        guard let vault else { throw unknownBackend(.vault) }
        var created = false
        var becameTarget = false
        if !vault.exists {
            let known = try knownWriteTarget()
            if let known, known.backend != .vault {
                throw .invalidConfiguration(detail: "the secrets of '\(service)' go to \(known.backend.rawValue) (\(known.reason)), not to a vault: there is none to unlock. Move them with `rizq-prefs secret move --from \(known.backend.rawValue) --to vault`, or set RIZQ_SECRETS_BACKEND=vault")
            }
            guard let layout = try? vault.layout() else {
                throw .invalidInput(reason: "the service name '\(service)' cannot name a vault folder")
            }
            let slots = vault.automaticSlots(layout: layout)
            guard !slots.isEmpty else { throw nothingCanStore() }
            do {
                try vault.create(slots: slots)
            } catch .alreadyExists {
                // Another process made it meanwhile: unlock that one.
            } catch {
                throw error.secretError
            }
            created = true
            if known == nil {
                try remember(SecretWriteTarget(backend: .vault, origin: .automatic, reason: "made by `secret unlock`"), replacing: false)
                becameTarget = true
            }
        }
        do {
            return VaultUnlock(report: try vault.unlock(timeout: timeout), created: created, becameWriteTarget: becameTarget)
        } catch {
            throw error.secretError
        }
    }

    /// Forgets the vault's key everywhere (``VaultSecretStore/lock()``): the kernel-keyring cache
    /// of every process of this user. Returns how many cached keys were removed.
    @discardableResult
    public func lockVault() throws(SecretError) -> Int {
        guard let vault else { throw unknownBackend(.vault) }
        do { return try vault.lock() } catch { throw error.secretError }
    }
}
#endif
