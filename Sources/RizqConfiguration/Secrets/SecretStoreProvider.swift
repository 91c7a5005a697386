#if Configuration
import Configuration
import Foundation
import RizqCore
import Synchronization

/// A swift-configuration provider over a ``/RizqCore/SecretStore``: a `ConfigReader`
/// reads tokens, passwords and API keys from the Secret Service (or any other store), and
/// every value it returns is marked secret, so that swift-configuration's access logs and
/// `ConfigValue.description` print `<REDACTED>` in its place.
///
/// ```swift
/// import Configuration
/// import RizqConfiguration
/// import RizqSecrets
///
/// let config = ConfigReader(providers: [
///     EnvironmentVariablesProvider(),
///     try SuiteStoreProvider(suite: "com.example.server"),
///     SecretStoreProvider(store: SecretServiceStore(service: "com.example.server")),
/// ])
/// let password = try config.requiredString(forKey: "database.password")
/// ```
///
/// A key's components joined with `.` name the account: `database.password` is the item with
/// `service` = the store's service and `account` = `database.password`, the one that
/// `rizq-prefs secret set database.password` stores and `secret-tool lookup service S account
/// database.password` prints. A secret is text or bytes: it reads as `string` (UTF-8) or
/// `bytes`, and as `int`, `double` or `bool` when its text is one (`8080`, `0.5`, `true`);
/// arrays are never secrets here. Store errors (``/RizqCore/SecretError``: no keyring,
/// locked, timed out) are thrown as they are: a reader then answers with the default, or
/// throws for a `required` read.
///
/// This module does not link libsecret: pass a `SecretServiceStore` from `RizqSecrets`, or an
/// ``/RizqCore/InMemorySecretStore`` in tests.
///
/// Reads go to the store each time (with `SecretServiceStore`, one D-Bus round trip). The
/// store has no change stream, so `watch` yields the current value only; a snapshot reads
/// each account the first time it is asked for it and then keeps that answer. Put this
/// provider last in a reader's list, so that keys found elsewhere never reach the keyring.
public struct SecretStoreProvider: Sendable {
    /// The store read.
    public let store: any SecretStore

    /// A provider over `store`.
    public init(store: any SecretStore) {
        self.store = store
    }
}

extension SecretStoreProvider: ConfigProvider {
    /// `SecretStoreProvider[<service>]`, as access logs name the provider.
    public var providerName: String { "SecretStoreProvider[\(store.service)]" }

    /// The secret of the key's account now, marked secret; missing when there is no item.
    /// - Throws: ``/RizqCore/SecretError`` from the store; ``ConfigTypeMismatch`` when the
    ///   secret does not read as `type`.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let account = Self.account(for: key)
        return try result(account: account, bytes: try store.secretBytes(forAccount: account), type: type)
    }

    /// The same as ``value(forKey:type:)``, without blocking a Swift concurrency thread while
    /// the store waits for the Secret Service.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        let account = Self.account(for: key)
        return try result(account: account, bytes: try await store.secretBytes(forAccount: account), type: type)
    }

    /// The current value only: a ``/RizqCore/SecretStore`` has no change stream. Use
    /// ``fetchValue(forKey:type:)`` (a reader's `fetch` methods) to read a rotated secret.
    public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    /// A snapshot that reads each account once, when it is first asked for, and keeps it.
    public func snapshot() -> any ConfigSnapshot {
        SecretSnapshot(provider: self)
    }

    /// One snapshot: a ``/RizqCore/SecretStore`` has no change stream.
    public func watchSnapshot<Return: ~Copyable>(
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }

    /// The account that holds `key`: its components joined with `.`.
    static func account(for key: AbsoluteConfigKey) -> String {
        key.components.joined(separator: ".")
    }

    /// The stored bytes as a secret value of `type`.
    func result(account: String, bytes: Data?, type: ConfigType) throws(ConfigTypeMismatch) -> LookupResult {
        guard let bytes else { return LookupResult(encodedKey: account, value: nil) }
        guard let content = SecretContent(bytes: bytes).configContent(as: type) else {
            throw ConfigTypeMismatch(
                providerName: providerName, encodedKey: account,
                found: String(data: bytes, encoding: .utf8) == nil ? "bytes" : "text", requested: type,
                hint: type.isArray
                    ? "a secret holds one value: read it as string or bytes"
                    : "read it as string or bytes, or store the secret as \(type.rawValue) text")
        }
        return LookupResult(encodedKey: account, value: ConfigValue(content, isSecret: true))
    }
}

/// The secrets of a store as they were when the snapshot first read each one.
final class SecretSnapshot: ConfigSnapshot {
    let provider: SecretStoreProvider
    /// What each account read gave: its bytes, or `nil` for no item. Errors are not kept.
    private let read = Mutex<[String: Data?]>([:])

    init(provider: SecretStoreProvider) {
        self.provider = provider
    }

    var providerName: String { provider.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let account = SecretStoreProvider.account(for: key)
        if let kept = read.withLock({ $0[account] }) {
            return try provider.result(account: account, bytes: kept, type: type)
        }
        let fresh = try provider.store.secretBytes(forAccount: account)
        // The first answer wins, so that two readers of one snapshot never disagree.
        let bytes = read.withLock { kept -> Data? in
            if let earlier = kept[account] { return earlier }
            kept[account] = .some(fresh)
            return fresh
        }
        return try provider.result(account: account, bytes: bytes, type: type)
    }
}

extension ConfigType {
    /// Whether values of this type are arrays.
    var isArray: Bool {
        switch self {
        case .stringArray, .intArray, .doubleArray, .boolArray, .byteChunkArray: return true
        case .string, .int, .double, .bool, .bytes: return false
        }
    }
}
#endif
