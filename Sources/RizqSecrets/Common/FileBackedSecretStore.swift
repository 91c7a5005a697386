#if Secrets
import Dispatch
import Foundation
import RizqCore

/// A secret store whose calls do blocking file work (reading, locking, replacing a file; running
/// a key source): its `async` forms run the synchronous ones on a dispatch thread, never on the
/// Swift concurrency pool, with no deadline of their own — each step has one (the lock's wait,
/// a key-source program's, the portal's). ``VaultSecretStore`` and ``FileKeyringStore`` are two.
public protocol FileBackedSecretStore: SecretStore {
    /// What the store is, in words for an error ("the vault", "the file keyring").
    var storeDescription: String { get }
}

extension FileBackedSecretStore {
    /// The synchronous `storeSecret`, on a dispatch thread, not the Swift concurrency pool.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError) {
        try await offload { () throws(SecretError) in try self.storeSecret(bytes, isText: isText, forAccount: account, label: label) }
    }

    /// The synchronous `secretBytes(forAccount:)`, on a dispatch thread.
    public func secretBytes(forAccount account: String) async throws(SecretError) -> Data? {
        try await offload { () throws(SecretError) -> Data? in try self.secretBytes(forAccount: account) }
    }

    /// The synchronous `deleteSecret(forAccount:)`, on a dispatch thread.
    public func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool {
        try await offload { () throws(SecretError) -> Bool in try self.deleteSecret(forAccount: account) }
    }

    /// The synchronous `storeSecret` with a lifetime, on a dispatch thread.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) async throws(SecretError) {
        try await offload { () throws(SecretError) in
            try self.storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: lifetime)
        }
    }

    /// The synchronous `readSecret(forAccount:)`, on a dispatch thread.
    public func readSecret(forAccount account: String) async throws(SecretError) -> SecretReading? {
        try await offload { () throws(SecretError) -> SecretReading? in try self.readSecret(forAccount: account) }
    }

    /// The synchronous `accounts()`, on a dispatch thread.
    public func accounts() async throws(SecretError) -> [String] {
        try await offload { () throws(SecretError) -> [String] in try self.accounts() }
    }

    private func offload<T: Sendable>(_ work: @escaping @Sendable () throws(SecretError) -> T) async throws(SecretError) -> T {
        try await BlockingCall.run(on: .global(), timeout: nil, onTimeout: .deadlineExceeded(seconds: 0, detail: storeDescription), work)
    }
}
#endif
