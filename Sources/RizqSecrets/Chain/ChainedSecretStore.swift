#if Secrets
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
/// The chain is a list of ``SecretBackend``s, made from ``SecretStoreConfiguration/registry``
/// (``SecretBackendRegistry/standard``: credential folders, the Secret Service, the vault, plain
/// text), or given whole (``init(service:backends:vault:configuration:)``), as swift-log's
/// `MultiplexLogHandler` is a list of handlers.
///
/// **Reads** try the backends of the order — by default the credential folders (systemd's
/// `$CREDENTIALS_DIRECTORY`, read-only), the Secret Service, the vault — and return the first
/// that has the item. A backend that is not there (no session bus, no libsecret, no credential
/// folder, no vault) is skipped; one that is there but cannot answer (locked, frozen, failing, a
/// vault nobody can unlock here) is an error, never a `nil`: "not found" never hides "could not
/// look". The write target is always read too, even when the order leaves it out.
///
/// **Writes** go to one backend, the write target (``writeTarget()``): the first writable backend
/// of an order set by the API, `RIZQ_SECRETS_BACKEND` or the config file, which is never skipped;
/// else the backend an earlier automatic choice remembered; else an automatic choice among the
/// backends that are there (``SecretBackend/candidacy(looking:)``): one that holds the service's
/// secrets already (its vault), else one that is there (a Secret Service on the bus, even locked
/// or frozen: its error stops the write, there is no fall-through), else one that can be made (a
/// vault with a key source). The automatic choice is remembered after the first store, so a D-Bus
/// session that appears later does not split the app's items. Plain text is used only when named
/// in the process that writes (never from a remembered choice), and every write to it logs a
/// warning. A write whose account an earlier backend of the order holds (a credential folder's
/// file) is refused: reads would never see it.
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
    /// Every backend the chain knows, those outside its order included (for the report), in the
    /// registry's order.
    public let backends: [any SecretBackend]
    /// The vault the chain made from its registry (``SecretBackendRegistry/Entry/init(name:vault:)``)
    /// or was given, kept as it is for the operations only a vault has — ``unlockVault(timeout:)``,
    /// ``lockVault()``, ``VaultSecretStore/rekey()``, ``VaultSecretStore/acceptRestoredVault()``,
    /// ``VaultSecretStore/setAsideDamagedVault()`` — and reads and writes as one of ``backends``;
    /// `nil` when the chain has none.
    public let vault: VaultSecretStore?

    let settingsResult: Result<ChainSettings, SecretError>
    /// The automatic choice this object made, so that it looks at the other backends once.
    let automaticChoice = Mutex<SecretWriteTarget?>(nil)
    /// Where the chain keeps its own state for the service (its remembered write target, a
    /// move's journal): `nil` when the service name cannot name a folder.
    let state: ChainState?

    /// The queue the chain's calls run on (concurrent: a slow backend holds up only its caller).
    static let queue = DispatchQueue(label: "RizqSecrets.chain", qos: .userInitiated, attributes: .concurrent)

    /// The chain of `service` (`nil`: ``/RizqCore/AppIdentity/current``), set up by
    /// `configuration`, the environment and the config file, with the backends of
    /// `configuration.registry`. Nothing is touched until the first call; a setting that cannot
    /// be used (an unknown backend in `RIZQ_SECRETS_BACKEND`, an untrusted config file) fails
    /// every call with its error.
    public init(service: String? = nil, configuration: SecretStoreConfiguration = SecretStoreConfiguration()) {
        let service = service ?? AppIdentity.current
        self.service = service
        self.configuration = configuration
        let settings = Result { () throws(SecretError) -> ChainSettings in try ChainSettings.resolve(configuration) }
        settingsResult = settings
        let vault = (try? settings.get().vault) ?? VaultConfiguration.fromEnvironment(configuration.environment)
        let context = SecretBackendRegistry.Context(
            service: service, configuration: configuration, vault: vault, credentialDirectories: (try? settings.get().credentialDirectories) ?? [])
        var made: [any SecretBackend] = []
        var madeVault: VaultSecretStore?
        for entry in configuration.registry.entries {
            guard let makeVault = entry.makeVault else {
                made.append(entry.make(context))
                continue
            }
            let typed = makeVault(context)
            madeVault = madeVault ?? typed
            made.append(typed)
        }
        backends = made
        self.vault = madeVault
        state = ChainState(service: service, root: vault.root)
    }

    /// A chain of exactly `backends`, read in this order; the first writable one takes every
    /// write (as if the API had set the order). `configuration` gives the deadline and the
    /// environment; its registry and order are not used. `vault`, when one of `backends` is a
    /// vault, is that vault: what ``unlockVault(timeout:)``, ``lockVault()`` and the other
    /// operations only a vault has act on, and where the chain keeps its own state (its root);
    /// without it, the chain keeps its state under the secrets root its settings name.
    public init(
        service: String? = nil, backends: [any SecretBackend], vault: VaultSecretStore? = nil,
        configuration: SecretStoreConfiguration = SecretStoreConfiguration()
    ) {
        let service = service ?? AppIdentity.current
        self.service = service
        self.configuration = configuration
        self.backends = backends
        self.vault = vault
        let names = backends.map(\.name)
        let settings = Result { () throws(SecretError) -> ChainSettings in
            var settings = try ChainSettings.resolve(configuration)
            settings.order = names
            settings.orderOrigin = .api
            settings.orderSource = "the app's list of backends"
            return settings
        }
        settingsResult = settings
        let root = vault?.configuration.root ?? (try? settings.get().vault.root) ?? VaultConfiguration.defaultRoot(configuration.environment)
        state = ChainState(service: service, root: root)
    }

    /// The backends reads try, in order.
    public func order() throws(SecretError) -> [SecretBackendName] {
        try settingsResult.get().order
    }

    /// The backend named `name`, if the chain has it.
    public func backend(named name: SecretBackendName) -> (any SecretBackend)? {
        backends.first { $0.name == name }
    }

    /// The names of the chain's writable backends, for a message ("secret-service, file-keyring,
    /// vault, plaintext").
    var writableNames: String {
        backends.filter(\.isWritable).map(\.name.rawValue).joined(separator: ", ")
    }

    /// The backends of the order, in order (those the chain has).
    func orderedBackends() throws(SecretError) -> [any SecretBackend] {
        try order().compactMap { backend(named: $0) }
    }

    // MARK: - SecretStore

    /// Stores the secret in the write target (``writeTarget()``); its error, if any, as it is.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try call("storing '\(account)'") { () throws(SecretError) in try self.storeNow(bytes, isText: isText, account: account, label: label) }
    }

    /// Stores the secret with its lifetime in the write target, which keeps it (see
    /// `SecretLifetime` for where each backend does); a backend that keeps none refuses it.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        try call("storing '\(account)'") { () throws(SecretError) in
            try self.storeNow(bytes, isText: isText, account: account, label: label, lifetime: lifetime)
        }
    }

    /// What a read finds, served or expired: the first backend's secret that is served, else the
    /// first expired one with its lifetime; `nil` when none has it.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        try call("reading '\(account)'") { () throws(SecretError) -> SecretReading? in try self.readingNow(account) }
    }

    /// `storeSecret(_:isText:forAccount:label:lifetime:)`; the task is suspended, not blocked.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) async throws(SecretError) {
        try await callAsync("storing '\(account)'") { () throws(SecretError) in
            try self.storeNow(bytes, isText: isText, account: account, label: label, lifetime: lifetime)
        }
    }

    /// `readSecret(forAccount:)`; the task is suspended, not blocked.
    public func readSecret(forAccount account: String) async throws(SecretError) -> SecretReading? {
        try await callAsync("reading '\(account)'") { () throws(SecretError) -> SecretReading? in try self.readingNow(account) }
    }

    /// The secret from the first backend that has it (and serves it: an expired one is not); `nil`
    /// when none has it and every backend that is there could look.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try call("reading '\(account)'") { () throws(SecretError) -> Data? in try self.readNow(account)?.bytes }
    }

    /// Deletes the item from every writable backend that has it; `false` when none had it.
    /// - Throws: a backend's error (after the others were tried); ``/RizqCore/SecretError/readOnly(backend:detail:)``
    ///   when a read-only backend (a credential folder) still holds the item.
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
    public func backend(holding account: String) throws(SecretError) -> SecretBackendName? {
        try call("looking for '\(account)'") { () throws(SecretError) -> SecretBackendName? in try self.readNow(account)?.backend }
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
#endif
