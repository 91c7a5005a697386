#if Secrets
import Foundation
import RizqCore

/// The config file of the secret chain: `$XDG_CONFIG_HOME/rizq-prefs/secrets.json` (or
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
struct SecretsConfigFile: Sendable, Equatable, Decodable {
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

    /// The file's path: `RIZQ_SECRETS_CONFIG`, else under `XDG_CONFIG_HOME` (absolute only), else
    /// under `~/.config`.
    static func defaultPath(_ environment: [String: String]) -> String {
        if let path = environment["RIZQ_SECRETS_CONFIG"], !path.isEmpty { return path }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/rizq-prefs/secrets.json" }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + "/.config/rizq-prefs/secrets.json"
    }

    /// The rule of the config file: its words choose where secrets go and can name a command to
    /// run, so it must be this user's (or root's) and nobody else may write it (a root process
    /// reads only root's: a config in a user's tree does not run commands as root). A link is
    /// followed (dotfile managers link configs), and the file it names judged.
    static let trust = FileTrust.configuration("secrets config file").following(true)

    /// The file at `path`; `nil` when there is none.
    static func load(_ path: String) throws(SecretError) -> SecretsConfigFile? {
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
