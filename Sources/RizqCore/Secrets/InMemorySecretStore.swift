import Foundation
import Synchronization

/// A ``SecretStore`` that keeps secrets in memory, for the unit tests of apps that use this
/// package (as swift-log ships an in-memory handler). Nothing is persisted.
///
/// ```swift
/// let secrets = InMemorySecretStore(service: "com.rizq.app")
/// let session = SessionManager(secrets: secrets)   // the app's code, under test
/// XCTAssertEqual(try secrets.secret(forAccount: "auth_token"), "expected")
/// ```
public final class InMemorySecretStore: SecretStore {
    /// One stored item.
    public struct Item: Sendable, Equatable {
        /// The secret.
        public var bytes: Data
        /// Whether it was stored as text.
        public var isText: Bool
        /// The label it was stored with.
        public var label: String
        /// Its expiry and refresh token, when it was stored with them.
        public var lifetime: SecretLifetime?
    }

    /// The service name of every item.
    public let service: String
    private let items = Mutex<[String: Item]>([:])

    /// An empty store for `service`.
    public init(service: String = "tests") {
        self.service = service
    }

    /// Stores the secret, after the same input checks as `SecretServiceStore` (in `RizqSecrets`).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: nil)
    }

    /// Stores the secret with its lifetime (kept as given; `nil` drops the one it had).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count, lifetime: lifetime)
        let item = Item(
            bytes: bytes, isText: isText, label: label ?? SecretInput.defaultLabel(service: service, account: account),
            lifetime: lifetime?.isEmpty == false ? lifetime : nil)
        items.withLock { $0[account] = item }
    }

    /// The stored bytes, or `nil` (none, or expired).
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try readSecret(forAccount: account)?.bytes
    }

    /// The stored secret, found or expired, or `nil`.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        try SecretInput.validate(service: service, account: account)
        return items.withLock { $0[account] }.map { SecretReading.of($0.bytes, lifetime: $0.lifetime) }
    }

    /// Removes the item; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        return items.withLock { $0.removeValue(forKey: account) != nil }
    }

    /// The accounts, sorted.
    public func accounts() throws(SecretError) -> [String] {
        items.withLock { $0.keys.sorted() }
    }

    /// Everything stored, for assertions in tests.
    public var storedItems: [String: Item] {
        items.withLock { $0 }
    }
}
