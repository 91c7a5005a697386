#if Secrets
import Foundation
import RizqCore

/// Where one setting of the chain came from, in the order of precedence: the API (a
/// ``SecretStoreConfiguration`` property), the environment, the config file, the marker that
/// remembers an automatic choice, the default.
public enum SecretSettingOrigin: String, Sendable, Codable {
    /// Set in code.
    case api
    /// An environment variable (`RIZQ_SECRETS_BACKEND`, …).
    case environment
    /// The config file (`$XDG_CONFIG_HOME/rizq-prefs-secrets/secrets.json`).
    case configFile = "config-file"
    /// The marker that remembers an earlier automatic choice of the write target.
    case remembered
    /// Nothing set it: the default (for the write target, an automatic choice).
    case automatic
}

/// The chain's settings once the API, the environment and the config file are merged, setting by
/// setting (``SecretSettingOrigin`` gives the precedence).
struct ChainSettings: Sendable {
    /// The backends, in reading order.
    var order: [SecretBackendName]
    /// Who set the order: `.automatic` is the default order with an automatic write target.
    var orderOrigin: SecretSettingOrigin
    /// The text that set it, for messages (`RIZQ_SECRETS_BACKEND=vault`).
    var orderSource: String
    var vault: VaultConfiguration
    var credentialDirectories: [CredentialDirectoryStore.Directory]
    /// The config file's path, and whether there was one.
    var configFile: String
    var configFileExists: Bool

    static let variables = (
        backend: "RIZQ_SECRETS_BACKEND", directory: "RIZQ_SECRETS_DIR", credentialDirectories: "RIZQ_SECRETS_CREDENTIAL_DIRS",
        runSecrets: "RIZQ_SECRETS_RUN_SECRETS", systemd: "RIZQ_SECRETS_SYSTEMD_CREDS", cache: "RIZQ_SECRETS_KEYRING_CACHE"
    )

    /// Merges `configuration` (the API), its environment and the config file it names.
    static func resolve(_ configuration: SecretStoreConfiguration) throws(SecretError) -> ChainSettings {
        let environment = configuration.environment
        let path = configuration.configFile ?? SecretsConfigFile.defaultPath(environment)
        let file = try SecretsConfigFile.load(path, formerPath: configuration.configFile == nil ? SecretsConfigFile.formerPath(environment) : nil)

        // The order.
        var order = SecretBackendName.defaultOrder
        var origin = SecretSettingOrigin.automatic
        var source = "the default order"
        if let backends = configuration.backends {
            guard !backends.isEmpty else { throw .invalidConfiguration(detail: "the configuration's backends list is empty; name at least one backend, or leave it nil") }
            if let unknown = backends.first(where: { !configuration.registry.names.contains($0) }) {
                throw .invalidConfiguration(detail: "the configuration names the backend '\(unknown)', which its registry does not have; give one of \(configuration.registry.names.map(\.rawValue).joined(separator: ", "))")
            }
            (order, origin, source) = (backends, .api, "the app's configuration")
        } else if let text = environment[variables.backend], !text.isEmpty {
            if let named = try SecretBackendName.order(from: text, origin: variables.backend, known: configuration.registry.names) {
                (order, origin, source) = (named, .environment, "\(variables.backend)=\(text)")
            }
        } else if let text = file?.backend {
            if let named = try SecretBackendName.order(from: text, origin: "the config file \(path)'s backend", known: configuration.registry.names) {
                (order, origin, source) = (named, .configFile, "the config file \(path)")
            }
        }

        // The vault.
        var vault: VaultConfiguration
        if let given = configuration.vault {
            vault = given
        } else {
            var withoutDirectory = environment
            withoutDirectory[variables.directory] = nil
            let root: String
            if let directory = environment[variables.directory], directory.hasPrefix("/") {
                root = directory
            } else if let directory = file?.secretsDirectory {
                guard directory.hasPrefix("/") else { throw .invalidConfiguration(detail: "the config file \(path)'s secretsDirectory '\(directory)' is not an absolute path") }
                root = directory
            } else {
                root = VaultConfiguration.defaultRoot(withoutDirectory)
            }
            let fromEnvironment = VaultConfiguration.fromEnvironment(environment)
            vault = VaultConfiguration(root: root, stateFolder: VaultConfiguration.defaultStateFolder(environment))
            if !fromEnvironment.passphraseSources.isEmpty {
                vault.passphraseSources = fromEnvironment.passphraseSources
            } else if let file {
                vault.passphraseSources = [file.passphraseFile.map(VaultPassphraseSource.file), file.passphraseCommand.map(VaultPassphraseSource.command)].compactMap { $0 }
            }
            vault.keyFile = fromEnvironment.keyFile ?? file?.keyFile
            vault.usesSystemdCredentials = try flag(variables.systemd, environment) ?? file?.systemdCredentials ?? true
            vault.usesKeyringCache = try flag(variables.cache, environment) ?? file?.keyringCache ?? true
        }
        if configuration.asksOnTerminal, !vault.passphraseSources.contains(.terminal) { vault.passphraseSources.append(.terminal) }

        // The credential folders.
        var directories: [CredentialDirectoryStore.Directory]
        if let given = configuration.credentialDirectories {
            directories = given
        } else {
            if let list = environment[variables.credentialDirectories], !list.isEmpty {
                directories = list.split(separator: ":").map { .init(path: String($0), origin: variables.credentialDirectories) }
            } else if let list = file?.credentialDirectories {
                directories = list.map { .init(path: $0, origin: "the config file") }
            } else if let systemd = environment["CREDENTIALS_DIRECTORY"], !systemd.isEmpty {
                directories = [.init(path: systemd, origin: "$CREDENTIALS_DIRECTORY")]
            } else {
                directories = []
            }
            if try flag(variables.runSecrets, environment) ?? file?.runSecrets ?? false {
                directories.append(.init(path: CredentialDirectoryStore.runSecrets, origin: "/run/secrets (enabled)"))
            }
        }
        return ChainSettings(
            order: order, orderOrigin: origin, orderSource: source, vault: vault, credentialDirectories: directories, configFile: path,
            configFileExists: file != nil)
    }

    /// A yes/no environment variable: `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`;
    /// `nil` when it is not set.
    static func flag(_ name: String, _ environment: [String: String]) throws(SecretError) -> Bool? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .invalidConfiguration(detail: "\(name)=\(text) is neither on nor off; give 1 or 0")
        }
    }
}
#endif
