import Foundation

/// Where an app keeps its secrets: auth tokens, API keys, passwords.
///
/// Items are addressed by `service` (the store's, usually the app id) and `account` (the key).
/// Implementations: `SecretServiceStore` (the desktop's Secret Service, through libsecret)
/// and ``InMemorySecretStore`` (for the unit tests of apps that use this package), in the
/// manner of swift-log's handlers.
///
/// ```swift
/// let secrets: any SecretStore = SecretServiceStore(service: "com.rizq.app")
/// try secrets.setSecret(token, forAccount: "auth_token")
/// let token = try secrets.secret(forAccount: "auth_token")   // nil when absent
/// ```
public protocol SecretStore: Sendable {
    /// The service name every item of this store carries.
    var service: String { get }

    /// Stores `bytes` for `account` (replacing what was there); `isText` marks a UTF-8 string.
    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError)
    /// The stored bytes, or `nil` when there is no such item.
    func secretBytes(forAccount account: String) throws(SecretError) -> Data?
    /// Deletes the item; `false` when there was none.
    func deleteSecret(forAccount account: String) throws(SecretError) -> Bool
    /// The accounts that have an item under ``service``, sorted. Never the secrets.
    func accounts() throws(SecretError) -> [String]

    /// ``storeSecret(_:isText:forAccount:label:)``, without blocking a Swift concurrency thread.
    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError)
    /// ``secretBytes(forAccount:)``, without blocking a Swift concurrency thread.
    func secretBytes(forAccount account: String) async throws(SecretError) -> Data?
    /// ``deleteSecret(forAccount:)``, without blocking a Swift concurrency thread.
    func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool
    /// ``accounts()``, without blocking a Swift concurrency thread.
    func accounts() async throws(SecretError) -> [String]

    /// Stores `bytes` for `account` with `lifetime` (an expiry, a refresh token; `nil`: none,
    /// and any the account had is dropped). A store that keeps no lifetime takes `nil` only, and
    /// throws ``SecretError/invalidInput(reason:)`` for any other, writing nothing.
    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError)
    /// What is stored for `account`, expired or not: ``SecretReading/found(_:lifetime:)``, or
    /// ``SecretReading/expired(_:)`` with the refresh token; `nil` when there is no such item.
    /// (`secretBytes(forAccount:)` answers `nil` for an expired secret.)
    func readSecret(forAccount account: String) throws(SecretError) -> SecretReading?
    /// `storeSecret(_:isText:forAccount:label:lifetime:)`, without blocking a Swift concurrency thread.
    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) async throws(SecretError)
    /// `readSecret(forAccount:)`, without blocking a Swift concurrency thread.
    func readSecret(forAccount account: String) async throws(SecretError) -> SecretReading?
}

extension SecretStore {
    /// Runs the synchronous form (right for stores that never block).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError) {
        try blockingStore(bytes, isText, account, label)
    }

    /// Runs the synchronous form (right for stores that never block).
    public func secretBytes(forAccount account: String) async throws(SecretError) -> Data? {
        try blockingRead(account)
    }

    /// Runs the synchronous form (right for stores that never block).
    public func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool {
        try blockingDelete(account)
    }

    /// Runs the synchronous form (right for stores that never block).
    public func accounts() async throws(SecretError) -> [String] {
        try blockingAccounts()
    }

    /// A store that keeps no lifetime: stores when `lifetime` says nothing, else refuses.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        if let lifetime, !lifetime.isEmpty {
            throw .invalidInput(reason: "this store (\(Self.self)) keeps no expiry or refresh token; nothing was written. Store the secret without them, or in a store that keeps them (the vault, the file keyring, the Secret Service)")
        }
        try storeSecret(bytes, isText: isText, forAccount: account, label: label)
    }

    /// A store that keeps no lifetime: what `secretBytes(forAccount:)` reads, never expired.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        try secretBytes(forAccount: account).map { .found($0, lifetime: nil) }
    }

    /// Runs the synchronous form (right for stores that never block).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) async throws(SecretError) {
        try blockingStore(bytes, isText, account, label, lifetime)
    }

    /// Runs the synchronous form (right for stores that never block).
    public func readSecret(forAccount account: String) async throws(SecretError) -> SecretReading? {
        try blockingReading(account)
    }

    // In an async context a call picks the async overload; these pick the synchronous one.
    private func blockingStore(_ bytes: Data, _ isText: Bool, _ account: String, _ label: String?, _ lifetime: SecretLifetime?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: lifetime)
    }

    private func blockingReading(_ account: String) throws(SecretError) -> SecretReading? {
        try readSecret(forAccount: account)
    }

    private func blockingStore(_ bytes: Data, _ isText: Bool, _ account: String, _ label: String?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label)
    }

    private func blockingRead(_ account: String) throws(SecretError) -> Data? {
        try secretBytes(forAccount: account)
    }

    private func blockingDelete(_ account: String) throws(SecretError) -> Bool {
        try deleteSecret(forAccount: account)
    }

    private func blockingAccounts() throws(SecretError) -> [String] {
        try accounts()
    }

    /// Stores a text secret (a token, a password) for `account`.
    public func setSecret(_ secret: String, forAccount account: String, label: String? = nil) throws(SecretError) {
        try storeSecret(Data(secret.utf8), isText: true, forAccount: account, label: label)
    }

    /// Stores a binary secret (any bytes, NULs included) for `account`.
    public func setSecret(_ secret: Data, forAccount account: String, label: String? = nil) throws(SecretError) {
        try storeSecret(secret, isText: false, forAccount: account, label: label)
    }

    /// The text secret of `account`, or `nil` when there is none.
    /// - Throws: ``SecretError/notText`` when the stored bytes are not UTF-8.
    public func secret(forAccount account: String) throws(SecretError) -> String? {
        guard let bytes = try secretBytes(forAccount: account) else { return nil }
        guard let text = String(data: bytes, encoding: .utf8) else { throw .notText }
        return text
    }

    /// The secret of `account` as bytes, or `nil` when there is none.
    public func secretData(forAccount account: String) throws(SecretError) -> Data? {
        try secretBytes(forAccount: account)
    }

    /// Stores a text secret for `account` that expires, or carries a refresh token, as
    /// `lifetime` says.
    public func setSecret(_ secret: String, forAccount account: String, label: String? = nil, lifetime: SecretLifetime) throws(SecretError) {
        try storeSecret(Data(secret.utf8), isText: true, forAccount: account, label: label, lifetime: lifetime)
    }

    /// Stores a text secret with `lifetime` without blocking a Swift concurrency thread.
    public func setSecret(_ secret: String, forAccount account: String, label: String? = nil, lifetime: SecretLifetime) async throws(SecretError) {
        try await storeSecret(Data(secret.utf8), isText: true, forAccount: account, label: label, lifetime: lifetime)
    }

    /// Stores a text secret without blocking a Swift concurrency thread.
    public func setSecret(_ secret: String, forAccount account: String, label: String? = nil) async throws(SecretError) {
        try await storeSecret(Data(secret.utf8), isText: true, forAccount: account, label: label)
    }

    /// Stores a binary secret without blocking a Swift concurrency thread.
    public func setSecret(_ secret: Data, forAccount account: String, label: String? = nil) async throws(SecretError) {
        try await storeSecret(secret, isText: false, forAccount: account, label: label)
    }

    /// The text secret of `account` without blocking a Swift concurrency thread.
    public func secret(forAccount account: String) async throws(SecretError) -> String? {
        guard let bytes = try await secretBytes(forAccount: account) else { return nil }
        guard let text = String(data: bytes, encoding: .utf8) else { throw .notText }
        return text
    }

    /// The secret bytes of `account` without blocking a Swift concurrency thread.
    public func secretData(forAccount account: String) async throws(SecretError) -> Data? {
        try await secretBytes(forAccount: account)
    }
}
