#if Secrets
import Crypto
import Foundation
import RizqAge

/// The unlocked identity cached in the kernel keyring: one `user` key holding its 32 bytes,
/// named `rizq-prefs:vault:<hash of service and recipient>` (no account, no secret in the name),
/// in this uid's persistent keyring where the kernel has one (it outlives logouts, so cron jobs
/// and SSH sessions share it), else in the user keyring `@u`. Its permissions are possessor and
/// user view/read/search only, and it expires after the unlock's time-out; ``remove()`` (lock)
/// invalidates it at once. Every call is a system call: nothing blocks.
struct VaultIdentityCache {
    let keyDescription: String

    init(service: String, recipient: String) {
        let digest = SHA256.hash(data: Data(service.utf8) + [0] + Data(recipient.utf8))
        keyDescription = "rizq-prefs:vault:" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The keyrings to look in, persistent first; the errors of those that could not be reached.
    private func keyrings() -> (ids: [(id: Int32, name: String)], errors: [KernelKeyringError]) {
        var ids: [(Int32, String)] = []
        var errors: [KernelKeyringError] = []
        do {
            ids.append((try KernelKeyring.persistentKeyring(), "persistent"))
        } catch {
            errors.append(error)
        }
        ids.append((KernelKeyring.userKeyring, "user"))
        return (ids, errors)
    }

    /// The cached identity if there is one that opens `recipient`'s vault; the failure that kept
    /// it from being looked at otherwise (a refused `keyctl` is not an error for the vault).
    func load(recipient: String) -> (identity: AgeX25519Identity?, failure: KernelKeyringError?) {
        var failure: KernelKeyringError?
        for keyring in keyrings().ids {
            do throws(KernelKeyringError) {
                guard let key = try KernelKeyring.search(keyring: keyring.id, description: keyDescription) else { continue }
                var bytes = try KernelKeyring.read(key)
                defer { for index in bytes.indices { bytes[index] = 0 } }
                if let identity = try? AgeX25519Identity(rawRepresentation: bytes), identity.recipient.string == recipient {
                    return (identity, nil)
                }
            } catch {
                failure = failure ?? error
            }
        }
        return (nil, failure)
    }

    /// The serial and keyring of the cached key, if any (for `secret backends` and tests).
    func find() -> (serial: Int32, keyring: String)? {
        for keyring in keyrings().ids {
            if let key = try? KernelKeyring.search(keyring: keyring.id, description: keyDescription) { return (key, keyring.name) }
        }
        return nil
    }

    /// Caches `identity` for `seconds`; replaces an earlier entry (its permissions allow no
    /// update: it is invalidated and added again). Returns the key's serial and keyring.
    func store(_ identity: AgeX25519Identity, seconds: UInt32) throws(KernelKeyringError) -> (serial: Int32, keyring: String) {
        _ = remove()
        let (ids, errors) = keyrings()
        var lastError = errors.first
        for keyring in ids {
            do throws(KernelKeyringError) {
                var payload = identity.rawRepresentation
                defer { for index in payload.indices { payload[index] = 0 } }
                let key = try KernelKeyring.add(description: keyDescription, payload: payload, keyring: keyring.id)
                do throws(KernelKeyringError) {
                    // The time-out first: setting it needs the setattr permission the final
                    // permissions take away.
                    try KernelKeyring.setTimeout(key, seconds: max(seconds, 1))
                    try KernelKeyring.setPermissions(key, KernelKeyring.cachePermissions)
                } catch {
                    try? KernelKeyring.invalidate(key)
                    throw error
                }
                return (key, keyring.name)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? KernelKeyringError(.addKey, code: KernelKeyringError.notImplemented)
    }

    /// Invalidates every cached copy; the number removed.
    func remove() -> Int {
        var removed = 0
        for keyring in keyrings().ids {
            // A bounded loop: one key per keyring is the rule, a few are tolerated.
            for _ in 0..<8 {
                guard let key = try? KernelKeyring.search(keyring: keyring.id, description: keyDescription), (try? KernelKeyring.invalidate(key)) != nil else { break }
                removed += 1
            }
        }
        return removed
    }
}
#endif
