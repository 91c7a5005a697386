import Foundation
import RizqCore

/// The backends a ``ChainedSecretStore`` reads from and writes to, by the names that
/// `RIZQ_SECRETS_BACKEND`, the config file and `rizq-prefs secret --backend` use.
public enum SecretBackendKind: String, Sendable, CaseIterable, Codable {
    /// Credential directories: `$CREDENTIALS_DIRECTORY` (systemd's `LoadCredential=`,
    /// `LoadCredentialEncrypted=`, `SetCredential=`), and `/run/secrets` (Docker and Kubernetes)
    /// when enabled. Read-only: ``CredentialDirectoryStore``.
    case credentials
    /// The desktop's Secret Service (GNOME Keyring, KWallet, KeePassXC): ``SecretServiceStore``.
    case secretService = "secret-service"
    /// The encrypted vault, a file per service: ``VaultSecretStore``.
    case vault
    /// Plain text in a file, 0600: ``PlaintextSecretStore``. Only ever used when named
    /// explicitly (an order that lists it); never chosen automatically.
    case plaintext

    /// The order of a chain that nobody configured: credentials, Secret Service, vault. Plain
    /// text is not in it.
    public static let defaultOrder: [SecretBackendKind] = [.credentials, .secretService, .vault]

    /// Whether the backend can store and delete (the credential directories cannot).
    public var isWritable: Bool { self != .credentials }

    /// The order `text` names: `auto` (or empty) is `nil` (the default order, with an automatic
    /// write target); otherwise one backend or a comma-separated order, each named once.
    /// `origin` says where the text came from, for the error.
    static func order(from text: String, origin: String) throws(SecretError) -> [SecretBackendKind]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "auto" { return nil }
        var order: [SecretBackendKind] = []
        for word in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let name = word.trimmingCharacters(in: .whitespaces)
            guard let kind = SecretBackendKind(rawValue: name) else {
                throw .invalidConfiguration(detail: "\(origin) names '\(name)', which is not a backend; give auto, or one of \(allCases.map(\.rawValue).joined(separator: ", ")), or a comma-separated order such as credentials,vault")
            }
            guard !order.contains(kind) else {
                throw .invalidConfiguration(detail: "\(origin) names '\(name)' twice; name each backend once")
            }
            order.append(kind)
        }
        return order
    }
}

/// How long a backend keeps a secret.
public enum SecretPersistence: String, Sendable, Codable {
    /// As long as a process runs (the Secret Service's session keyring: its daemon).
    case process
    /// Until the machine restarts.
    case untilReboot = "until-reboot"
    /// On disk until it is deleted.
    case untilDeleted = "until-deleted"
    /// Provided by the host for the life of the unit or container (systemd credentials, Docker
    /// and Kubernetes secrets): RizqPrefs neither keeps nor changes it.
    case providedByHost = "provided-by-host"
}

/// What protects a backend's secrets at rest.
public enum SecretProtection: String, Sendable, Codable {
    /// The desktop keyring's own encryption, unlocked by the login password.
    case osKeyring = "os-keyring"
    /// A TPM2 (systemd-creds with the TPM): a stolen disk alone does not open it.
    case tpm
    /// systemd's host key (`/var/lib/systemd/credential.secret`): a stolen disk that holds the
    /// host key opens it.
    case hostKey = "host-key"
    /// A passphrase (scrypt): as strong as the passphrase.
    case passphrase
    /// A key file; on the same disk as the secrets it is obfuscation only.
    case keyFile = "key-file"
    /// Nothing: plain text, readable by anyone who can read the file.
    case plaintext
    /// Whatever the host used to deliver it: `LoadCredentialEncrypted=` is sealed with the host
    /// key or a TPM2 at rest; `LoadCredential=`, Docker and Kubernetes secrets are plain files.
    case hostProvided = "host-provided"
}
