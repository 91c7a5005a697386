#if Secrets
import Foundation
import RizqCore

/// Container registries' logins (``RegistryCredential``) on the secret chain: what
/// `docker-credential-rizq` stands on (`"credsStore": "rizq"` in `~/.docker/config.json`).
///
/// Each registry is one account of the chain's ``service`` (`docker-credentials`): its server URL
/// exactly as docker names it, so that `list` gives back the names docker stored. The secret is a
/// small JSON object with the user name and the password or token. The chain decides where it
/// goes — the desktop's keyring, the vault on a server, the file keyring in a Flatpak — as for
/// every secret of ``ChainedSecretStore``.
///
/// ```swift
/// let registries = RegistryCredentialStore()
/// try registries.store(RegistryCredential(serverURL: "registry.example.com:5000", username: "ci", secret: token))
/// let login = try registries.credential(forServer: "registry.example.com:5000")
/// ```
public final class RegistryCredentialStore: Sendable {
    /// The service the chain keeps registries' logins under.
    public static let defaultService = "docker-credentials"
    /// The most registries ``list()`` reads.
    public static let maximumListed = 1_000

    /// The chain of ``service``.
    public let chain: ChainedSecretStore
    /// The chain's service name.
    public var service: String { chain.service }

    /// The logins kept under `service` (``defaultService``), with the chain's `configuration`.
    public init(service: String = RegistryCredentialStore.defaultService, configuration: SecretStoreConfiguration = SecretStoreConfiguration()) {
        chain = ChainedSecretStore(service: service, configuration: configuration)
    }

    /// The login of the registry `url`, or `nil`.
    public func credential(forServer url: String) throws(SecretError) -> RegistryCredential? {
        try Self.check(url)
        guard var bytes = try chain.secretBytes(forAccount: url) else { return nil }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        return try Self.decode(bytes, server: url)
    }

    /// Stores `credential`, replacing the login of the same server.
    public func store(_ credential: RegistryCredential) throws(SecretError) {
        try Self.check(credential.serverURL)
        if credential.username.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidInput(reason: "the user name holds a control character")
        }
        let body = StoredLogin(username: credential.username, secret: credential.secret)
        guard var bytes = try? JSONEncoder().encode(body) else { throw .invalidInput(reason: "the login could not be encoded as JSON") }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        try chain.storeSecret(bytes, isText: true, forAccount: credential.serverURL, label: "Docker: \(credential.serverURL)")
    }

    /// Erases the login of `url`; `false` when there was none.
    @discardableResult
    public func erase(server url: String) throws(SecretError) -> Bool {
        try Self.check(url)
        return try chain.deleteSecret(forAccount: url)
    }

    /// Every registry with a login, and its user name (never a secret); at most
    /// ``maximumListed``.
    public func list() throws(SecretError) -> [String: String] {
        var listed: [String: String] = [:]
        for url in try chain.accounts().prefix(Self.maximumListed) where Self.checkQuietly(url) {
            if let login = try credential(forServer: url) { listed[url] = login.username }
        }
        return listed
    }

    // MARK: The stored secret

    /// What the chain keeps for a registry.
    private struct StoredLogin: Codable {
        var username: String
        var secret: String

        enum CodingKeys: String, CodingKey {
            case username = "Username"
            case secret = "Secret"
        }
    }

    private static func decode(_ bytes: Data, server: String) throws(SecretError) -> RegistryCredential {
        guard let login = try? JSONDecoder().decode(StoredLogin.self, from: bytes) else {
            throw .damaged(
                path: "the \(defaultService) item '\(server)'",
                detail: "it is not the {\"Username\", \"Secret\"} object docker-credential-rizq writes; log in again (docker login \(server)) to replace it")
        }
        return RegistryCredential(serverURL: server, username: login.username, secret: login.secret)
    }

    private static func check(_ url: String) throws(SecretError) {
        if let problem = RegistryCredential.problem(withServerURL: url) { throw .invalidInput(reason: problem) }
    }

    private static func checkQuietly(_ url: String) -> Bool {
        RegistryCredential.problem(withServerURL: url) == nil
    }
}
#endif
