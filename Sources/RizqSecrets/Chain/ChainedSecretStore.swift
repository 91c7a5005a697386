import Dispatch
import Foundation
import RizqCore
import Synchronization

/// One `SecretStore` over every place a Linux host keeps secrets: the same code stores and reads
/// them, with no prompt and no daemon, on a desktop, over SSH, in a container, in CI, under cron
/// and in a systemd service.
///
/// ```swift
/// let secrets = ChainedSecretStore(service: "com.rizq.app")   // nil: the app id
/// try secrets.setSecret(token, forAccount: "auth_token")
/// let token = try secrets.secret(forAccount: "auth_token")    // nil when no backend has it
/// ```
///
/// **Reads** try the backends in order — by default the credential folders (systemd's
/// `$CREDENTIALS_DIRECTORY`, read-only), the Secret Service, the vault — and return the first
/// that has the item. A backend that is not there (no session bus, no libsecret, no credential
/// folder, no vault) is skipped; one that is there but cannot answer (locked, frozen, failing, a
/// vault nobody can unlock here) is an error, never a `nil`: "not found" never hides "could not
/// look". (An item found in the write target itself, after an earlier backend failed, is
/// returned: that is where this app's own writes go.)
///
/// **Writes** go to one backend, the write target (``writeTarget()``): the first writable backend
/// of an order set by the API, `RIZQ_SECRETS_BACKEND` or the config file, which is never skipped;
/// else the backend an earlier automatic choice remembered; else an automatic choice among the
/// backends that are there — the vault if this service has one, else the Secret Service if one
/// is on the bus (even locked or frozen: its error stops the write, there is no fall-through),
/// else the vault if a key source can make one (root's systemd-creds, a passphrase source, a key
/// file). The automatic choice is remembered after the first store (`WriteTargetMarker`), so a
/// D-Bus session that appears later does not split the app's items. Plain text is used only
/// when named.
///
/// **Deletes** remove the item from every writable backend that has it.
///
/// Every call runs off the Swift concurrency pool, and the caller waits at most
/// ``SecretStoreConfiguration/deadline`` seconds. <doc:SecretsOnDesktopAndHeadless> has the
/// environments, the settings and the threat model of each backend.
public final class ChainedSecretStore: SecretStore {
    /// The service of every item (a folder name for the vault, an attribute in the keyring).
    public let service: String
    /// The configuration the chain was made with (the API's part of the settings).
    public let configuration: SecretStoreConfiguration
    /// The vault backend.
    public let vault: VaultSecretStore
    /// The Secret Service backend.
    public let secretService: SecretServiceStore
    /// The credential folders.
    public let credentials: CredentialDirectoryStore
    /// The plain-text backend (used only when named).
    public let plaintext: PlaintextSecretStore

    let settingsResult: Result<ChainSettings, SecretError>
    /// The automatic choice this object made, so that it looks at the Secret Service once.
    let automaticChoice = Mutex<SecretWriteTarget?>(nil)

    /// The queue the chain's calls run on (concurrent: a slow backend holds up only its caller).
    static let queue = DispatchQueue(label: "RizqSecrets.chain", qos: .userInitiated, attributes: .concurrent)

    /// The chain of `service` (`nil`: ``/RizqCore/AppIdentity/current``), set up by
    /// `configuration`, the environment and the config file. Nothing is touched until the first
    /// call; a setting that cannot be used (an unknown backend in `RIZQ_SECRETS_BACKEND`) fails
    /// every call with ``/RizqCore/SecretError/invalidConfiguration(detail:)``.
    public init(service: String? = nil, configuration: SecretStoreConfiguration = SecretStoreConfiguration()) {
        let service = service ?? AppIdentity.current
        self.service = service
        self.configuration = configuration
        let settings = Result { () throws(SecretError) -> ChainSettings in try ChainSettings.resolve(configuration) }
        settingsResult = settings
        let vaultConfiguration = (try? settings.get().vault) ?? VaultConfiguration.fromEnvironment(configuration.environment)
        vault = VaultSecretStore(service: service, configuration: vaultConfiguration)
        secretService = SecretServiceStore(
            service: service, collection: configuration.secretServiceCollection, timeout: configuration.secretServiceTimeout,
            allowsPrompt: configuration.allowsPrompt)
        credentials = CredentialDirectoryStore(service: service, directories: (try? settings.get().credentialDirectories) ?? [])
        plaintext = PlaintextSecretStore(service: service, root: vaultConfiguration.root, lockTimeout: vaultConfiguration.lockTimeout)
    }

    /// The backends reads try, in order.
    public func order() throws(SecretError) -> [SecretBackendKind] {
        try settingsResult.get().order
    }

    /// The store behind `backend`.
    public func store(for backend: SecretBackendKind) -> any SecretStore {
        switch backend {
        case .credentials: return credentials
        case .secretService: return secretService
        case .vault: return vault
        case .plaintext: return plaintext
        }
    }

    // MARK: - SecretStore

    /// Stores the secret in the write target (``writeTarget()``); its error, if any, as it is.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try call("storing '\(account)'") { () throws(SecretError) in try self.storeNow(bytes, isText: isText, account: account, label: label) }
    }

    /// The secret from the first backend that has it; `nil` when none has it and every backend
    /// that is there could look.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try call("reading '\(account)'") { () throws(SecretError) -> Data? in try self.readNow(account)?.bytes }
    }

    /// Deletes the item from every writable backend that has it; `false` when none had it.
    /// - Throws: a backend's error (after the others were tried); ``/RizqCore/SecretError/readOnly(backend:detail:)``
    ///   when a credential folder still holds the item.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try call("deleting '\(account)'") { () throws(SecretError) -> Bool in try self.deleteNow(account) }
    }

    /// The accounts of every backend in the chain, each once, sorted.
    public func accounts() throws(SecretError) -> [String] {
        try call("listing the accounts") { () throws(SecretError) -> [String] in try self.accountsNow() }
    }

    /// ``storeSecret(_:isText:forAccount:label:)``; the task is suspended, not blocked.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError) {
        try await callAsync("storing '\(account)'") { () throws(SecretError) in try self.storeNow(bytes, isText: isText, account: account, label: label) }
    }

    /// ``secretBytes(forAccount:)``; the task is suspended, not blocked.
    public func secretBytes(forAccount account: String) async throws(SecretError) -> Data? {
        try await callAsync("reading '\(account)'") { () throws(SecretError) -> Data? in try self.readNow(account)?.bytes }
    }

    /// ``deleteSecret(forAccount:)``; the task is suspended, not blocked.
    public func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool {
        try await callAsync("deleting '\(account)'") { () throws(SecretError) -> Bool in try self.deleteNow(account) }
    }

    /// ``accounts()``; the task is suspended, not blocked.
    public func accounts() async throws(SecretError) -> [String] {
        try await callAsync("listing the accounts") { () throws(SecretError) -> [String] in try self.accountsNow() }
    }

    /// Which backend holds `account` now (the one a read would take it from), or `nil`.
    public func backend(holding account: String) throws(SecretError) -> SecretBackendKind? {
        try call("looking for '\(account)'") { () throws(SecretError) -> SecretBackendKind? in try self.readNow(account)?.backend }
    }

    // MARK: - Off the pool, with a deadline

    func call<Value: Sendable>(_ what: String, _ body: @escaping @Sendable () throws(SecretError) -> Value) throws(SecretError) -> Value {
        let deadline = configuration.deadline
        return try BlockingCall.run(
            on: Self.queue, timeout: deadline, onTimeout: .deadlineExceeded(seconds: deadline, detail: "\(what) for service \(service)"), body)
    }

    func callAsync<Value: Sendable>(_ what: String, _ body: @escaping @Sendable () throws(SecretError) -> Value) async throws(SecretError) -> Value {
        let (deadline, service) = (configuration.deadline, service)
        return try await BlockingCall.run(
            on: Self.queue, timeout: deadline, onTimeout: .deadlineExceeded(seconds: deadline, detail: "\(what) for service \(service)"), body)
    }
}
