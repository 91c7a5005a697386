#if Secrets
import Foundation
import RizqCore

/// A backend's name, as `RIZQ_SECRETS_BACKEND`, the config file's `backend`, `rizq-prefs secret
/// --backend` and `secret backends` spell it: an open set (a new backend brings its own name),
/// with the names of the backends this package ships as static members.
///
/// ```swift
/// var configuration = SecretStoreConfiguration()
/// configuration.backends = [.credentials, .vault]
/// ```
public struct SecretBackendName: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as it is written: `vault`, `secret-service`.
    public let rawValue: String

    /// The name `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name in `value`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Decodes the name from its text.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Encodes the name as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The name itself.
    public var description: String { rawValue }

    /// Credential folders: `$CREDENTIALS_DIRECTORY` (systemd), `/run/secrets` (Docker,
    /// Kubernetes) when enabled. Read-only: ``CredentialDirectoryStore``.
    public static let credentials: SecretBackendName = "credentials"
    /// The desktop's Secret Service (GNOME Keyring, KWallet, KeePassXC): ``SecretServiceStore``.
    public static let secretService: SecretBackendName = "secret-service"
    /// The encrypted vault, a file per service: ``VaultSecretStore``.
    public static let vault: SecretBackendName = "vault"
    /// Plain text in a file, 0600: ``PlaintextSecretStore``. Only ever used when named.
    public static let plaintext: SecretBackendName = "plaintext"
    /// libsecret's file keyring, keyed by the Flatpak Secret portal inside a sandbox:
    /// ``FileKeyringStore``. The write target of a chain nobody configured inside a sandbox.
    public static let fileKeyring: SecretBackendName = "file-keyring"

    /// The order of a chain that nobody configured: credentials, Secret Service, vault — and
    /// inside a Flatpak sandbox credentials, the file keyring, Secret Service, vault (the file
    /// keyring first, where libsecret keeps an app's secrets in a sandbox). Plain text is never
    /// in it.
    public static var defaultOrder: [SecretBackendName] {
        FlatpakSandbox.current != nil ? [.credentials, .fileKeyring, .secretService, .vault] : [.credentials, .secretService, .vault]
    }

    /// The order `text` names among `known`: `auto` (or empty) is `nil` (the default order, with
    /// an automatic write target); otherwise one backend or a comma-separated order, each named
    /// once. `origin` says where the text came from, for the error.
    static func order(from text: String, origin: String, known: [SecretBackendName]) throws(SecretError) -> [SecretBackendName]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "auto" { return nil }
        var order: [SecretBackendName] = []
        for word in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let name = SecretBackendName(rawValue: word.trimmingCharacters(in: .whitespaces))
            guard known.contains(name) else {
                throw .invalidConfiguration(detail: "\(origin) names '\(name)', which is not a backend; give auto, or one of \(known.map(\.rawValue).joined(separator: ", ")), or a comma-separated order such as credentials,vault")
            }
            guard !order.contains(name) else {
                throw .invalidConfiguration(detail: "\(origin) names '\(name)' twice; name each backend once")
            }
            order.append(name)
        }
        return order
    }
}

/// The name the first releases gave ``SecretBackendName``.
@available(*, deprecated, renamed: "SecretBackendName")
public typealias SecretBackendKind = SecretBackendName
#endif
