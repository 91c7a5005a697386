#if Secrets
import Foundation
import RizqAge

/// Where a ``VaultSecretStore`` keeps its files and where it gets its key.
///
/// ```swift
/// // What the environment says (RIZQ_SECRETS_DIR, RIZQ_SECRETS_PASSPHRASE_FILE/_FD/_COMMAND,
/// // RIZQ_SECRETS_KEY_FILE), as the CLI uses it:
/// let vault = VaultSecretStore(service: "com.rizq.app", configuration: .fromEnvironment())
///
/// // A server app that asks for the passphrase on the terminal when nothing else gives it:
/// var configuration = VaultConfiguration.fromEnvironment()
/// configuration.passphraseSources.append(.terminal)
/// ```
public struct VaultConfiguration: Sendable {
    /// The folder that holds one folder per service (default
    /// `$XDG_DATA_HOME/rizq-prefs/secrets`, i.e. `~/.local/share/rizq-prefs/secrets`).
    public var root: String
    /// Where a passphrase comes from, in order (the first usable one is used, and a failure of
    /// that one is an error). Empty: the passphrase slot cannot be used.
    public var passphraseSources: [VaultPassphraseSource]
    /// A key file holding (or to hold) the identity; `nil`: no key-file slot.
    public var keyFile: String?
    /// Whether the systemd-creds slot is used (and made for a new vault) where it is usable.
    public var usesSystemdCredentials: Bool
    /// Whether a cached identity in the kernel keyring is used (``VaultSecretStore/unlock(timeout:)``
    /// puts it there).
    public var usesKeyringCache: Bool
    /// The slots a new vault gets when the first secret is stored; `nil` chooses: every slot
    /// whose source is usable now (systemd-creds as root, the key file if set, the passphrase if
    /// a source is set).
    public var newVaultSlots: [VaultKeySource]?
    /// log2 of scrypt's N for new passphrase slots (``defaultScryptWorkFactor``), within
    /// ``scryptWorkFactors``: a slot is not written outside it.
    public var scryptWorkFactor: Int
    /// The longest a key-source program (`systemd-creds`, a passphrase command) may run, seconds.
    public var commandTimeout: Double
    /// The longest a write waits for another process's write to finish, seconds; then it fails
    /// with ``VaultError/timedOut(command:seconds:)`` rather than hang behind a stuck process.
    public var lockTimeout: Double
    /// Where this machine records each vault's generation, outside the vaults' folder, so that an
    /// older copy put back is noticed (default ``defaultStateFolder(_:)``: `$XDG_STATE_HOME/rizq-prefs/vaults`).
    public var stateFolder: String

    /// The scrypt work factors a passphrase slot may be written with: from
    /// ``minimumScryptWorkFactor`` to what a read accepts (`age -p` writes 18; 2^20 takes 1 GiB
    /// and seconds to open). A slot is never written that this release could not open, nor one
    /// a guess costs next to nothing against.
    public static let scryptWorkFactors = minimumScryptWorkFactor...AgeScryptIdentity.defaultMaximumWorkFactor

    /// The lowest work factor a new passphrase slot is written with: 2^15 (32 MiB of scrypt
    /// memory per guess, r = 8). Below it an offline guess costs next to nothing; a read still
    /// opens any slot `age` wrote, whatever its factor.
    public static let minimumScryptWorkFactor = 15

    /// 2^17: a cold passphrase unlock took 0.36–0.41 s (release build, 155 MB peak) on this
    /// project's 2-core test machine, so it stays under a second when the machine is busy; scrypt
    /// with r = 8 needs 128 MiB at this N. age's own `-p` writes 2^18 (0.51–0.64 s there,
    /// 256 MiB); 2^16 took 0.15–0.22 s.
    public static let defaultScryptWorkFactor = 17

    /// A configuration with everything given.
    public init(
        root: String, passphraseSources: [VaultPassphraseSource] = [], keyFile: String? = nil,
        usesSystemdCredentials: Bool = true, usesKeyringCache: Bool = true, newVaultSlots: [VaultKeySource]? = nil,
        scryptWorkFactor: Int = VaultConfiguration.defaultScryptWorkFactor, commandTimeout: Double = 10, lockTimeout: Double = 30,
        stateFolder: String = VaultConfiguration.defaultStateFolder()
    ) {
        self.root = root
        self.passphraseSources = passphraseSources
        self.keyFile = keyFile
        self.usesSystemdCredentials = usesSystemdCredentials
        self.usesKeyringCache = usesKeyringCache
        self.newVaultSlots = newVaultSlots
        self.scryptWorkFactor = scryptWorkFactor
        self.commandTimeout = commandTimeout
        self.lockTimeout = lockTimeout
        self.stateFolder = stateFolder
    }

    /// The default state folder: `$XDG_STATE_HOME/rizq-prefs/vaults` (an absolute
    /// `XDG_STATE_HOME` only, as the XDG spec says), else `~/.local/state/rizq-prefs/vaults`.
    public static func defaultStateFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/rizq-prefs/vaults" }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + "/.local/state/rizq-prefs/vaults"
    }

    /// The default root: `$RIZQ_SECRETS_DIR`, else `$XDG_DATA_HOME/rizq-prefs/secrets` (an
    /// absolute `XDG_DATA_HOME` only, as the XDG spec says), else `~/.local/share/rizq-prefs/secrets`.
    public static func defaultRoot(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["RIZQ_SECRETS_DIR"], dir.hasPrefix("/") { return dir }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/rizq-prefs/secrets" }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + "/.local/share/rizq-prefs/secrets"
    }

    /// The configuration the environment gives: ``defaultRoot(_:)``; passphrase sources
    /// `RIZQ_SECRETS_PASSPHRASE_FILE`, then `RIZQ_SECRETS_PASSPHRASE_FD`, then
    /// `RIZQ_SECRETS_PASSPHRASE_COMMAND` (each one that is set); `RIZQ_SECRETS_KEY_FILE`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> VaultConfiguration {
        var sources: [VaultPassphraseSource] = []
        if let file = environment["RIZQ_SECRETS_PASSPHRASE_FILE"], !file.isEmpty { sources.append(.file(file)) }
        if let text = environment["RIZQ_SECRETS_PASSPHRASE_FD"], let fd = Int32(text), fd >= 0 { sources.append(.fileDescriptor(fd)) }
        if let command = environment["RIZQ_SECRETS_PASSPHRASE_COMMAND"], !command.isEmpty { sources.append(.command(command)) }
        let keyFile = environment["RIZQ_SECRETS_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        return VaultConfiguration(root: defaultRoot(environment), passphraseSources: sources, keyFile: keyFile, stateFolder: defaultStateFolder(environment))
    }
}
#endif
