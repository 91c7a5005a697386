import Foundation
import RizqPrefs
import RizqSecretsCore

/// A `SecretStore` as a schema migration's keyring: the seam between `RizqPrefs`, which knows
/// nothing of secrets, and `RizqSecretsCore`, which knows nothing of suites.
///
/// Every call goes to the store as it is; errors come back as the store's `SecretError`s. Most
/// code never names this type: ``RizqPrefs/SchemaChange/moveToSecretStore(_:_:account:label:ifTargetExists:)``
/// has an overload here that takes the `SecretStore` itself.
public struct SchemaSecretStoreAdapter: SchemaSecretStore {
    /// The store every call goes to.
    public let store: any SecretStore

    /// Adapts `store` (a `SecretServiceStore`, or `InMemorySecretStore` in an app's tests).
    public init(_ store: any SecretStore) {
        self.store = store
    }

    /// The store's `service`.
    public var service: String { store.service }

    /// Stores `bytes` for `account` through the store.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws {
        try store.storeSecret(bytes, isText: isText, forAccount: account, label: label)
    }

    /// The store's bytes for `account`, or `nil`.
    public func secretBytes(forAccount account: String) throws -> Data? {
        try store.secretBytes(forAccount: account)
    }

    /// Deletes `account`'s item from the store; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws -> Bool {
        try store.deleteSecret(forAccount: account)
    }
}

extension SchemaChange {
    /// Moves `key`'s value — a string or data — into `store` under `account` (default: the key),
    /// with `label`; see ``RizqPrefs/SchemaChange/moveToSecretStore(_:_:account:label:ifTargetExists:)``.
    ///
    /// ```swift
    /// import RizqPrefs
    /// import RizqSecrets          // SecretServiceStore
    /// import RizqSchemaSecrets    // this overload
    ///
    /// let keyring = SecretServiceStore(service: "com.rizq.app")
    /// .lightweight(from: 2, to: 3, [.moveToSecretStore("auth_token", keyring)])
    /// ```
    public static func moveToSecretStore(
        _ key: String, _ store: some SecretStore, account: String? = nil, label: String? = nil,
        ifTargetExists conflict: Conflict = .replace
    ) -> SchemaChange {
        moveToSecretStore(key, SchemaSecretStoreAdapter(store), account: account, label: label, ifTargetExists: conflict)
    }
}
