import Foundation

/// Where a schema migration can move a value that must not stay in a suite file: a keyring.
///
/// RizqPrefs knows nothing of secrets (an app that only wants preferences links no libsecret),
/// so a stage that moves a key into the Secret Service reaches it through this protocol. Its
/// requirements are those of `SecretStore` (`RizqSecretsCore`), with the same meaning, so any
/// secret store serves as one:
///
/// - `RizqSchemaSecrets` (a small module that sees both sides, without libsecret) gives
///   ``SchemaChange/moveToSecretStore(_:_:account:label:ifTargetExists:)`` an overload that
///   takes any `SecretStore` — `SecretServiceStore` or, in an app's tests,
///   `InMemorySecretStore`:
///
///   ```swift
///   import RizqSchemaSecrets
///   .moveToSecretStore("auth_token", SecretServiceStore(service: "com.rizq.app"))
///   ```
/// - Any other keyring can conform directly.
///
/// A migration reads the account first (so that a failure later can put back what was there),
/// stores the value, and on failure stores the old secret again or deletes the new one. The
/// value moved never appears in a log line, an error, or a migration preview.
public protocol SchemaSecretStore: Sendable {
    /// The name every item of this store carries (the Secret Service's `service` attribute),
    /// shown in previews and errors.
    var service: String { get }

    /// Stores `bytes` for `account`, replacing what was there; `isText` marks a UTF-8 string.
    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws
    /// The stored bytes, or `nil` when there is no such item.
    func secretBytes(forAccount account: String) throws -> Data?
    /// Deletes the item; `false` when there was none.
    func deleteSecret(forAccount account: String) throws -> Bool
}
