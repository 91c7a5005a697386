import CSecretShim
import Foundation
import Logging

/// Secrets in the desktop's Secret Service (GNOME Keyring, KWallet, KeePassXC), through
/// libsecret.
///
/// Items carry the attributes `service` and `account` under the schema
/// ``schemaName`` (`org.rizq.Prefs.Secret`), so `secret-tool lookup service S account A` finds
/// what this store saved, and this store finds what `secret-tool store` saved. Reads match on
/// the attributes only, whatever schema created the item.
///
/// Calls block on D-Bus, so they run on one serial worker thread (never on the Swift
/// concurrency pool); the caller waits at most ``timeout`` seconds. The connection and session
/// stay open across calls, and a read remembers where the item is (its D-Bus path, never its
/// secret), so that reading it again is one round trip as long as the service reports no change.
/// Nothing prompts the user unless ``allowsPrompt`` is set.
///
/// ```swift
/// let secrets = SecretServiceStore(service: "com.rizq.app")
/// try secrets.setSecret(token, forAccount: "auth_token", label: "RIZQ sign-in")
/// let token = try await secrets.secret(forAccount: "auth_token")
/// ```
public struct SecretServiceStore: SecretStore {
    /// Where new items go.
    public enum Collection: String, Sendable {
        /// The user's default keyring (alias `default`): kept across logins.
        case `default`
        /// The session keyring (alias `session`): forgotten when the daemon stops.
        case session
    }

    /// The libsecret schema name of the items this store creates.
    public static let schemaName = "org.rizq.Prefs.Secret"

    /// The `service` attribute of every item (default: `RIZQ_PREFS_APP_ID`, else the
    /// executable's name).
    public let service: String
    /// Where new items go.
    public let collection: Collection
    /// How long a call may take before it fails with ``SecretError/timedOut(seconds:)``.
    public let timeout: Double
    /// Whether a locked keyring may be unlocked by prompting the user.
    public let allowsPrompt: Bool

    private static let logger = Logger(label: "RizqSecrets")

    /// A store for `service` in `collection`.
    public init(service: String? = nil, collection: Collection = .default, timeout: Double = 5, allowsPrompt: Bool = false) {
        self.service = service ?? SecretInput.defaultService()
        self.collection = collection
        self.timeout = timeout
        self.allowsPrompt = allowsPrompt
    }

    // MARK: Synchronous

    /// Stores the secret, replacing the item's secret if one exists (whoever created it).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label)
        try SecretWorker.shared.run(timeout: timeout, storeOperation(bytes, isText, account, label))
    }

    /// The stored bytes, or `nil` when there is no item.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try SecretInput.validate(service: service, account: account)
        return try SecretWorker.shared.run(timeout: timeout, lookupOperation(account))
    }

    /// Deletes every item of the account; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        return try SecretWorker.shared.run(timeout: timeout, deleteOperation(account))
    }

    /// The accounts with items under ``service``, sorted; never the secrets.
    public func accounts() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        return try SecretWorker.shared.run(timeout: timeout, listOperation())
    }

    // MARK: Asynchronous

    /// Stores the secret; the calling task is suspended, not blocked.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label)
        try await SecretWorker.shared.run(timeout: timeout, storeOperation(bytes, isText, account, label))
    }

    /// The stored bytes, or `nil`; the calling task is suspended, not blocked.
    public func secretBytes(forAccount account: String) async throws(SecretError) -> Data? {
        try SecretInput.validate(service: service, account: account)
        return try await SecretWorker.shared.run(timeout: timeout, lookupOperation(account))
    }

    /// Deletes the account's items; the calling task is suspended, not blocked.
    public func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        return try await SecretWorker.shared.run(timeout: timeout, deleteOperation(account))
    }

    /// The accounts; the calling task is suspended, not blocked.
    public func accounts() async throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        return try await SecretWorker.shared.run(timeout: timeout, listOperation())
    }

    // MARK: Keyring state

    /// Whether the keyring new items go to exists and is locked (for diagnostics such as
    /// `rizq-prefs doctor`).
    public func keyringStatus() throws(SecretError) -> (exists: Bool, locked: Bool) {
        let alias = collection.rawValue
        return try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) -> KeyringStatus in
            var exists: Int32 = 0
            var locked: Int32 = 0
            _ = try LibSecret.call(alias: alias) { rizq_secret_collection_status(alias, &exists, &locked, $0) }
            return KeyringStatus(exists: exists != 0, locked: locked != 0)
        }.pair
    }

    /// Locks the keyring new items go to (unlocking it again takes the user's password).
    public func lockKeyring() throws(SecretError) {
        let alias = collection.rawValue
        try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) in
            _ = try LibSecret.call(alias: alias) { rizq_secret_collection_set_locked(alias, 1, $0) }
        }
    }

    // MARK: Operations (run on the worker)

    private func storeOperation(_ bytes: Data, _ isText: Bool, _ account: String, _ label: String?) -> @Sendable () throws(SecretError) -> Void {
        let (service, alias, prompt) = (service, collection.rawValue, allowsPrompt)
        let label = label ?? SecretInput.defaultLabel(service: service, account: account)
        return { () throws(SecretError) in
            _ = try LibSecret.call(alias: alias) { error in
                bytes.withUnsafeBytes { raw in
                    rizq_secret_store(Self.schemaName, service, account, label, raw.baseAddress, raw.count, isText ? 0 : 1, alias, prompt ? 1 : 0, error)
                }
            }
            Self.logger.debug("stored a secret", metadata: ["service": "\(service)", "account": "\(account)"])
        }
    }

    private func lookupOperation(_ account: String) -> @Sendable () throws(SecretError) -> Data? {
        let (service, prompt) = (service, allowsPrompt)
        return { () throws(SecretError) -> Data? in
            var value: OpaquePointer?
            let status = try LibSecret.call { rizq_secret_lookup(service, account, prompt ? 1 : 0, &value, $0) }
            guard status == Int32(RIZQ_SECRET_OK), let value else { return nil }
            defer { rizq_secret_value_release(value) }
            var length = 0
            guard let bytes = rizq_secret_value_bytes(value, &length) else { return Data() }
            return Data(bytes: bytes, count: length)
        }
    }

    private func deleteOperation(_ account: String) -> @Sendable () throws(SecretError) -> Bool {
        let (service, prompt) = (service, allowsPrompt)
        return { () throws(SecretError) -> Bool in
            let status = try LibSecret.call { rizq_secret_delete(service, account, prompt ? 1 : 0, $0) }
            return status == Int32(RIZQ_SECRET_OK)
        }
    }

    private func listOperation() -> @Sendable () throws(SecretError) -> [String] {
        let service = service
        return { () throws(SecretError) -> [String] in
            var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var count = 0
            _ = try LibSecret.call { rizq_secret_list(service, &names, &count, $0) }
            defer { rizq_secret_list_free(names, count) }
            guard let names else { return [] }
            return Set((0..<count).compactMap { names[$0].map { String(cString: $0) } }).sorted()
        }
    }
}

/// Sendable carrier for ``SecretServiceStore/keyringStatus()``.
private struct KeyringStatus: Sendable {
    var exists: Bool
    var locked: Bool
    var pair: (exists: Bool, locked: Bool) { (exists, locked) }
}
