#if Secrets
import Foundation
import Logging
import RizqCore

/// The config file of the secret chain: `$XDG_CONFIG_HOME/rizq-prefs-secrets/secrets.json` (or
/// `$RIZQ_SECRETS_CONFIG`), one JSON object whose members are all optional:
///
/// ```json
/// {
///   "backend": "credentials,vault",
///   "secretsDirectory": "/var/lib/myapp/secrets",
///   "passphraseFile": "/etc/myapp/vault-passphrase",
///   "passphraseCommand": "pass show myapp/vault",
///   "keyFile": "/media/usb/myapp.key",
///   "credentialDirectories": ["/run/credentials/myapp.service"],
///   "runSecrets": true,
///   "systemdCredentials": true,
///   "keyringCache": true
/// }
/// ```
///
/// The environment wins over it, setting by setting; the API wins over both. An unknown member
/// is an error (a misspelt setting must not be ignored). It holds no secret: never put a
/// passphrase in it, only where to find one.
///
/// It is the host's trust base — it can name a command to run and where keys and secrets are —
/// so it lives in a folder of its own, which no permission the docs give sandboxed apps reaches.
/// Releases before this one read `$XDG_CONFIG_HOME/rizq-prefs/secrets.json`, inside the folder
/// sandboxed apps were told to be given: a file there is moved once when it holds only choices
/// (``isOnlyChoices``), and refused, unread, when it names a command or a path
/// (``moveFormerFile(from:to:)``).
struct SecretsConfigFile: Sendable, Equatable, Decodable {
    /// The secrets' log (the label the chain logs under).

    var backend: String?
    var secretsDirectory: String?
    var passphraseFile: String?
    var passphraseCommand: String?
    var keyFile: String?
    var credentialDirectories: [String]?
    var runSecrets: Bool?
    var systemdCredentials: Bool?
    var keyringCache: Bool?

    static let members: Set<String> = [
        "backend", "secretsDirectory", "passphraseFile", "passphraseCommand", "keyFile", "credentialDirectories", "runSecrets",
        "systemdCredentials", "keyringCache",
    ]

    /// The name of its folder under `$XDG_CONFIG_HOME`.
    static let folderName = "rizq-prefs-secrets"

    /// The file's path: `RIZQ_SECRETS_CONFIG`, else under `XDG_CONFIG_HOME` (absolute only), else
    /// under `~/.config`: `…/rizq-prefs-secrets/secrets.json`.
    static func defaultPath(_ environment: [String: String]) -> String {
        if let path = environment["RIZQ_SECRETS_CONFIG"], !path.isEmpty { return path }
        return configHome(environment) + "/" + folderName + "/secrets.json"
    }

    /// Where releases before this one read it (`…/rizq-prefs/secrets.json`, in the folder
    /// sandboxed apps were told to be given); `nil` when `RIZQ_SECRETS_CONFIG` names the file.
    static func formerPath(_ environment: [String: String]) -> String? {
        if let path = environment["RIZQ_SECRETS_CONFIG"], !path.isEmpty { return nil }
        return configHome(environment) + "/" + SandboxReach.preferencesFolderName + "/secrets.json"
    }

    private static func configHome(_ environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + "/.config"
    }

    /// The rule of the config file: its words choose where secrets go and can name a command to
    /// run, so it must be this user's (or root's), nobody else may write it (a root process
    /// reads only root's: a config in a user's tree does not run commands as root), and it must
    /// not be where a sandboxed app can write (``FileTrust/configuration(_:)``). A link is
    /// followed (dotfile managers link configs), and the file it names judged.
    static let trust = FileTrust.configuration("secrets config file").following(true)

    /// The file at `path`; `nil` when there is none. With `formerPath` (the default location),
    /// a file an earlier release read there is moved first, once (``moveFormerFile(from:to:)``).
    static func load(_ path: String, formerPath: String? = nil) throws(SecretError) -> SecretsConfigFile? {
        if let file = try read(path) { return file }
        guard let formerPath, formerPath != path else { return nil }
        guard try moveFormerFile(from: formerPath, to: path) else { return nil }
        return try read(path)
    }

    private static func read(_ path: String) throws(SecretError) -> SecretsConfigFile? {
        let data: Data?
        do {
            data = try PrivateFiles.read(path, limit: 1 << 20, trust: Self.trust)
        } catch {
            if case .untrusted(let path, let reason) = error {
                throw .untrusted(path: path, detail: "refusing the secrets config file \(path): \(reason)")
            }
            throw .invalidConfiguration(detail: "cannot read the config file \(path): \(error)")
        }
        guard let data else { return nil }
        return try parse(data, path: path)
    }

    /// Whether the settings are only choices among what this user already has (which backends,
    /// whether to read `/run/secrets`, use systemd's credentials or the kernel-keyring cache),
    /// none of them plain text: nothing a sandbox could use to run a command, to move a key or a
    /// vault where it reads, or to have secrets written in clear.
    var isOnlyChoices: Bool {
        let backends = backend?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        return secretsDirectory == nil && passphraseFile == nil && passphraseCommand == nil && keyFile == nil
            && credentialDirectories == nil && !backends.contains(SecretBackendName.plaintext.rawValue)
    }

    /// The settings that name a command or a path, for messages.
    var instructionMembers: [String] {
        var members: [String] = []
        if passphraseCommand != nil { members.append("passphraseCommand") }
        if passphraseFile != nil { members.append("passphraseFile") }
        if keyFile != nil { members.append("keyFile") }
        if secretsDirectory != nil { members.append("secretsDirectory") }
        if credentialDirectories != nil { members.append("credentialDirectories") }
        if !isOnlyChoices, members.isEmpty { members.append("backend plaintext") }
        return members
    }

    /// Moves the file an earlier release read at `former` (inside the folder sandboxed apps were
    /// told to be given) to `path`, once: `true` when it was moved, `false` when there is none.
    /// Read there as data only: when it names a command or a path (or plain text), a sandbox
    /// could have written it to run that command on the host or to take its keys, so it is
    /// neither moved nor believed — the chain stops with an error that says how to move it by
    /// hand once its owner has read it.
    /// - Throws: ``SecretError/untrusted(path:detail:)`` for such a file, or one that cannot be
    ///   read or moved.
    static func moveFormerFile(from former: String, to path: String) throws(SecretError) -> Bool {
        let folder = PrivateFolder.parent(of: path)
        let byHand = "if you wrote it, read it and move it where only you can write: mkdir -p -m 700 '\(folder)' && mv '\(former)' '\(path)'; if you did not, remove it"
        let bytes: [UInt8]
        do {
            // Data: judged as a suite file is (this user's, nobody else may write it), wherever it is.
            guard let read = try PrivateFile.read(former, trust: .settings("former secrets config file"), limit: 1 << 20) else { return false }
            bytes = read.bytes
        } catch {
            throw .untrusted(path: former, detail: "refusing the secrets config file \(former) (where earlier releases kept it): \(error.reason)")
        }
        let where_ = SandboxReach.describe(PrivateFolder.parent(of: former))
        let file: SecretsConfigFile
        do {
            file = try parse(Data(bytes), path: former)
        } catch {
            throw .untrusted(path: former, detail: "the secrets config file \(former) is \(where_), where earlier releases kept it, and it cannot be moved to \(path): \(error); \(byHand)")
        }
        guard file.isOnlyChoices else {
            throw .untrusted(
                path: former,
                detail: "refusing the secrets config file \(former): it is \(where_), where earlier releases kept it, and it names \(file.instructionMembers.joined(separator: ", ")) — a sandboxed app could have written it to run a command or take keys on the host, so it is not read; \(byHand)")
        }
        do {
            try PrivateFolder.ensure(folder, trust: .configuration("secrets config folder"))
            try AtomicFile.create(bytes, at: path, subject: "secrets config file")
            _ = try AtomicFile.remove(former, subject: "former secrets config file")
        } catch {
            if error.problem == .system(.fileExists) { return true }
            throw .untrusted(path: former, detail: "cannot move the secrets config file \(former) to \(path): \(error.reason); \(byHand)")
        }
        Logger.rizqSecrets.warning("moved the secrets config file \(former) to \(path): sandboxed apps may be given the folder it was in")
        return true
    }

    static func parse(_ data: Data, path: String) throws(SecretError) -> SecretsConfigFile {
        func invalid(_ what: String) -> SecretError {
            .invalidConfiguration(detail: "the config file \(path) \(what); fix it or remove it")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw invalid("is not a JSON object")
        }
        if let unknown = Set(object.keys).subtracting(members).sorted().first {
            throw invalid("has the member '\(unknown)', which is not a setting (the settings: \(members.sorted().joined(separator: ", ")))")
        }
        do {
            return try JSONDecoder().decode(SecretsConfigFile.self, from: data)
        } catch DecodingError.typeMismatch(let type, let context) {
            throw invalid("has '\(context.codingPath.map(\.stringValue).joined(separator: "."))' that is not \(type == Bool.self ? "true or false" : type == String.self ? "a string" : "a list of strings")")
        } catch {
            throw invalid("cannot be read as the settings (\(error))")
        }
    }
}
#endif
