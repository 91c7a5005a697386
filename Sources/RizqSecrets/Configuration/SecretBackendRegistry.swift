#if Secrets
import Foundation
import RizqCore

/// The backends a ``ChainedSecretStore`` is built from, by name: ``standard`` lists those this
/// package ships; a new backend is one type conforming to ``SecretBackend`` and one line here (or
/// in an app's own registry, given to ``SecretStoreConfiguration/registry``).
///
/// ```swift
/// var configuration = SecretStoreConfiguration()
/// configuration.registry = .standard.adding("my-backend") { context in MyBackend(service: context.service) }
/// configuration.backends = ["my-backend", .vault]
/// ```
public struct SecretBackendRegistry: Sendable {
    /// What a backend is made from: the service, and the chain's settings once the API, the
    /// environment and the config file are merged.
    public struct Context: Sendable {
        /// The service whose secrets the chain holds.
        public var service: String
        /// The configuration the chain was made with (the API's part).
        public var configuration: SecretStoreConfiguration
        /// The vault's settings (root folder, key sources).
        public var vault: VaultConfiguration
        /// The credential folders, in order.
        public var credentialDirectories: [CredentialDirectoryStore.Directory]
    }

    /// One backend: its name and how to make it for a service.
    public struct Entry: Sendable {
        /// The name the order uses.
        public var name: SecretBackendName
        /// Makes the backend of `context.service`; touches nothing (the backend looks at its
        /// files, the bus or the sandbox when it is first asked).
        public var make: @Sendable (Context) -> any SecretBackend
        /// The same maker, typed, when the backend is a vault: the chain keeps the vault it made
        /// (``ChainedSecretStore/vault``) for the operations only a vault has (unlock, lock,
        /// rekey, …), without asking any backend what type it is.
        let makeVault: (@Sendable (Context) -> VaultSecretStore)?

        /// An entry from its parts.
        public init(name: SecretBackendName, make: @escaping @Sendable (Context) -> any SecretBackend) {
            self.name = name
            self.make = make
            makeVault = nil
        }

        /// The entry of a vault: `make` makes the ``VaultSecretStore`` that the chain reads and
        /// writes, and keeps as its ``ChainedSecretStore/vault``.
        public init(name: SecretBackendName, vault make: @escaping @Sendable (Context) -> VaultSecretStore) {
            self.name = name
            self.make = make
            makeVault = make
        }
    }

    /// The backends, in the order `secret backends` lists them.
    public var entries: [Entry]

    /// A registry of `entries`.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The names it knows.
    public var names: [SecretBackendName] { entries.map(\.name) }

    /// This registry with `name` added (or replaced) by `make`.
    public func adding(_ name: SecretBackendName, make: @escaping @Sendable (Context) -> any SecretBackend) -> SecretBackendRegistry {
        var copy = self
        copy.entries.removeAll { $0.name == name }
        copy.entries.append(Entry(name: name, make: make))
        return copy
    }

    /// The backends this package ships.
    public static let standard = SecretBackendRegistry(entries: [
        Entry(name: .credentials) { CredentialDirectoryStore(service: $0.service, directories: $0.credentialDirectories) },
        Entry(name: .secretService) {
            SecretServiceStore(
                service: $0.service, collection: $0.configuration.secretServiceCollection, timeout: $0.configuration.secretServiceTimeout,
                allowsPrompt: $0.configuration.allowsPrompt, probeTimeout: $0.configuration.probeTimeout)
        },
        Entry(name: .fileKeyring) { FileKeyringStore(service: $0.service) },
        Entry(name: .vault, vault: { VaultSecretStore(service: $0.service, configuration: $0.vault) }),
        Entry(name: .plaintext) { PlaintextSecretStore(service: $0.service, root: $0.vault.root, lockTimeout: $0.vault.lockTimeout) },
    ])
}
#endif
