#if Secrets
import Foundation
import RizqCore

/// How a ``ChainedSecretStore`` is set up from code: every property left `nil` comes from the
/// environment, then the config file, then the default (<doc:SecretsOnDesktopAndHeadless> lists
/// them all and their precedence).
///
/// ```swift
/// // Everything from the environment and the config file: what most apps want.
/// let secrets = ChainedSecretStore(service: "com.rizq.server")
///
/// // A server that reads systemd's credentials and keeps everything else in the vault,
/// // whatever the environment says:
/// var configuration = SecretStoreConfiguration()
/// configuration.backends = [.credentials, .vault]
/// let pinned = ChainedSecretStore(service: "com.rizq.server", configuration: configuration)
/// ```
public struct SecretStoreConfiguration: Sendable {
    /// The backends, in the order reads try them; the first writable one takes every write and
    /// is never skipped. `nil`: `RIZQ_SECRETS_BACKEND`, the config file's `backend`, else the
    /// default order (credentials, Secret Service, vault) with an automatic, remembered write
    /// target.
    public var backends: [SecretBackendName]?
    /// The vault's files and key sources, whole. `nil`: the environment
    /// (`RIZQ_SECRETS_DIR`, `RIZQ_SECRETS_PASSPHRASE_FILE`/`_FD`/`_COMMAND`,
    /// `RIZQ_SECRETS_KEY_FILE`, `RIZQ_SECRETS_SYSTEMD_CREDS`, `RIZQ_SECRETS_KEYRING_CACHE`), then
    /// the config file, then the defaults of ``VaultConfiguration``.
    public var vault: VaultConfiguration?
    /// The credential folders, in order. `nil`: `RIZQ_SECRETS_CREDENTIAL_DIRS` (colon-separated),
    /// else the config file's `credentialDirectories`, else `$CREDENTIALS_DIRECTORY`; plus
    /// `/run/secrets` when `RIZQ_SECRETS_RUN_SECRETS=1` (or the config file's `runSecrets`).
    public var credentialDirectories: [CredentialDirectoryStore.Directory]?
    /// Whether the vault may ask for its passphrase on the terminal (`/dev/tty`) when no other
    /// source gives it: right for a command a person types, wrong for a service.
    public var asksOnTerminal = false
    /// Where the Secret Service stores new items.
    public var secretServiceCollection: SecretServiceStore.Collection = .default
    /// How long a Secret Service call may take, seconds.
    public var secretServiceTimeout: Double = 5
    /// Whether a locked keyring may be unlocked by prompting the user (a desktop dialog).
    public var allowsPrompt = false
    /// How long the look at the Secret Service that chooses a write target may take, seconds:
    /// a daemon that does not answer in time is there but not answering, an error (never a
    /// reason to write elsewhere).
    public var probeTimeout: Double = 2
    /// The most a caller waits for any one call of the chain, seconds; then
    /// ``/RizqCore/SecretError/deadlineExceeded(seconds:detail:)``.
    public var deadline: Double = 60
    /// The backends the chain is made from, by name (``SecretBackendRegistry/standard``: those
    /// this package ships). An app adds its own backend here.
    public var registry: SecretBackendRegistry = .standard
    /// The config file. `nil`: `$RIZQ_SECRETS_CONFIG`, else
    /// `$XDG_CONFIG_HOME/rizq-prefs-secrets/secrets.json` (`~/.config/rizq-prefs-secrets/secrets.json`), a folder no permission given to sandboxed apps reaches.
    public var configFile: String?
    /// The environment the chain reads (the process's by default; a tool or a test can pass
    /// another).
    public var environment: [String: String]

    /// Everything from the environment and the config file.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// A chain of exactly `backends` (the first writable one takes every write).
    public init(backends: [SecretBackendName], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.backends = backends
        self.environment = environment
    }
}
#endif
