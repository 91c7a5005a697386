#if Secrets
import Foundation
import RizqCore

/// Network credentials (``NetworkCredential``) on the secret chain: what `git-credential-rizq`
/// stands on, and any program that keeps passwords for URLs.
///
/// Where they are kept follows the chain's write target (``ChainedSecretStore/writeTarget()``)
/// of ``service``:
/// - **The Secret Service** (a desktop): items exactly like git-credential-libsecret's — the
///   schema `org.gnome.keyring.NetworkPassword`, the attributes `user`, `protocol`, `server`,
///   `port` and `object`, the label `Git: https://host/path`, the password as the secret with the
///   expiry and refresh token on lines after it — so that either helper reads what the other
///   wrote. A search matches those attributes whatever schema made the item (git 2.44's helper
///   writes `org.git.Password`).
/// - **Anything else** (the vault on a server, the file keyring in a Flatpak, credential
///   folders read-only): items of the chain's ``service``, one account per place and user
///   (`https://alice@example.com/`), as `rizq-prefs secret` keeps them: the password as the
///   secret, the expiry and refresh token as its `SecretLifetime` (`rizq-prefs secret list
///   --long --service git-credentials` shows the expiry). Items an earlier release kept with
///   git's lines inside the secret are read as such.
///
/// An expired credential is never served: a read skips it, as git would discard it.
///
/// ```swift
/// let credentials = NetworkCredentialStore()
/// try credentials.store(NetworkCredential(protocol: "https", host: "git.example.com", username: "alice", password: token))
/// let found = try credentials.credential(matching: NetworkCredential(protocol: "https", host: "git.example.com"))
/// ```
public final class NetworkCredentialStore: Sendable {
    /// The schema of the items this store creates in the Secret Service: the one
    /// git-credential-libsecret (git 2.39) searches for and creates.
    public static let libsecretSchema = "org.gnome.keyring.NetworkPassword"
    /// The attributes that identify an item in the Secret Service, as git-credential-libsecret
    /// sets them.
    public static let libsecretAttributes = ["user", "protocol", "server", "port", "object"]
    /// The service the chain keeps credentials under when it is not the Secret Service.
    public static let defaultService = "git-credentials"
    /// The most items one read looks at (a request that matches more reads the first ones).
    static let maximumMatches = 32

    /// The chain of ``service``.
    public let chain: ChainedSecretStore
    /// The chain's service name.
    public var service: String { chain.service }
    private let secretService: SecretServiceStore

    /// The credentials kept under `service` (``defaultService``), with the chain's `configuration`.
    public init(service: String = NetworkCredentialStore.defaultService, configuration: SecretStoreConfiguration = SecretStoreConfiguration()) {
        chain = ChainedSecretStore(service: service, configuration: configuration)
        secretService = SecretServiceStore(
            service: service, collection: configuration.secretServiceCollection, timeout: configuration.secretServiceTimeout,
            allowsPrompt: configuration.allowsPrompt, probeTimeout: configuration.probeTimeout)
    }

    /// Whether credentials go to the Secret Service (the chain's write target); a chain where
    /// nothing can store reads from the chain.
    public func keepsInSecretService() throws(SecretError) -> Bool {
        do {
            return try chain.writeTarget().backend == .secretService
        } catch .noKeySource {
            return false
        }
    }

    /// The first credential that `query` matches and that has not expired at `now`; `nil` when
    /// there is none. `query` needs a protocol and a host or a path.
    public func credential(matching query: NetworkCredential, now: Date = Date()) throws(SecretError) -> NetworkCredential? {
        try Self.check(query: query)
        if try keepsInSecretService() {
            let items = try secretService.items(
                matching: Self.attributes(of: query), reading: Self.libsecretAttributes, limit: Self.maximumMatches)
            for item in items {
                let found = Self.credential(from: item).reading(storedSecret: String(decoding: item.secret, as: UTF8.self))
                if query.matches(found) && !found.isExpired(at: now) { return found }
            }
            return nil
        }
        for (account, stored) in try chainAccounts(matching: query).prefix(Self.maximumMatches) {
            guard case .found(var bytes, let lifetime)? = try chain.readSecret(forAccount: account) else { continue }
            defer { bytes.resetBytes(in: 0..<bytes.count) }
            let found = Self.credential(stored, bytes: bytes, lifetime: lifetime)
            if !found.isExpired(at: now) { return found }
        }
        return nil
    }

    /// Stores `credential`, replacing the one of the same place and user. One that has expired
    /// at `now` is not stored (and the one it would replace is erased).
    public func store(_ credential: NetworkCredential, now: Date = Date()) throws(SecretError) {
        if let problem = credential.problemStoring { throw .invalidInput(reason: "the credential cannot be stored: \(problem)") }
        if credential.isExpired(at: now) {
            _ = try erase(matching: credential, onlyWithPassword: false)
            return
        }
        if try keepsInSecretService() {
            try secretService.storeItem(
                attributes: Self.attributes(of: credential), identifying: Self.libsecretAttributes, schema: Self.libsecretSchema,
                label: "Git: \(credential.place)", secret: Data(credential.storedSecret.utf8), isText: true)
            return
        }
        // On the chain the password is the secret, and its expiry and refresh token its lifetime
        // (kept by every backend, shown by `rizq-prefs secret list --long`).
        let lifetime = SecretLifetime(expires: credential.expiry, refreshToken: credential.oauthRefreshToken)
        try chain.storeSecret(
            Data((credential.password ?? "").utf8), isText: true, forAccount: NetworkCredentialAccount.name(of: credential),
            label: "Git: \(credential.place)", lifetime: lifetime.isEmpty ? nil : lifetime)
    }

    /// Erases the credentials `query` matches; with `onlyWithPassword` and a password in the
    /// query, only those holding that password (git erases a password the server refused, not
    /// one stored since). How many were erased. `query` needs a protocol, a host, a path or a
    /// user name: an empty query would erase every credential.
    @discardableResult
    public func erase(matching query: NetworkCredential, onlyWithPassword: Bool = true) throws(SecretError) -> Int {
        if query.host == nil && query.path == nil && query.username == nil && query.protocol.isEmpty {
            throw .invalidInput(reason: "an erase needs a protocol, host, path or user name; an empty one would erase every credential")
        }
        let password = onlyWithPassword ? query.password : nil
        if try keepsInSecretService() {
            return try secretService.deleteItems(matching: Self.attributes(of: query), reading: Self.libsecretAttributes) { item in
                let stored = Self.credential(from: item).reading(storedSecret: String(decoding: item.secret, as: UTF8.self))
                return !query.matches(stored) || (password != nil && stored.password != password)
            }
        }
        var erased = 0
        for (account, stored) in try chainAccounts(matching: query) {
            // An expired copy is never served: erased whatever the password.
            if let password, case .found(let bytes, let lifetime)? = try chain.readSecret(forAccount: account),
                Self.credential(stored, bytes: bytes, lifetime: lifetime).password != password
            {
                continue
            }
            if try chain.deleteSecret(forAccount: account) { erased += 1 }
        }
        return erased
    }

    // MARK: Parts

    /// The chain's accounts that name a credential `query` matches, sorted by name.
    private func chainAccounts(matching query: NetworkCredential) throws(SecretError) -> [(String, NetworkCredential)] {
        try chain.accounts().compactMap { account in
            guard let stored = NetworkCredentialAccount.credential(named: account), query.matches(stored) else { return nil }
            return (account, stored)
        }
    }

    /// git-credential-libsecret's attributes of `credential` (those it has).
    static func attributes(of credential: NetworkCredential) -> [String: String] {
        var attributes: [String: String] = [:]
        if let username = credential.username { attributes["user"] = username }
        if !credential.protocol.isEmpty { attributes["protocol"] = credential.protocol }
        if let host = credential.host { attributes["server"] = host }
        if let port = credential.port { attributes["port"] = String(port) }
        if let path = credential.path { attributes["object"] = path }
        return attributes
    }

    /// The credential an item's attributes describe.
    /// The credential of a chain item: `stored` (from its account name) with the password the
    /// secret holds and its lifetime. An item an earlier release wrote keeps the expiry and
    /// refresh token inside the secret (git 2.44's lines), read as such.
    private static func credential(_ stored: NetworkCredential, bytes: Data, lifetime: SecretLifetime?) -> NetworkCredential {
        var credential = stored.reading(storedSecret: String(decoding: bytes, as: UTF8.self))
        if let lifetime {
            credential.expiry = lifetime.expires
            credential.oauthRefreshToken = lifetime.refreshToken
        }
        return credential
    }

    private static func credential(from item: SecretServiceStore.AttributeItem) -> NetworkCredential {
        let attributes = item.attributes
        return NetworkCredential(
            protocol: attributes["protocol"] ?? "", host: attributes["server"], port: attributes["port"].flatMap { UInt16($0) },
            path: attributes["object"], username: attributes["user"])
    }

    /// A read needs a protocol and a host or a path (git-credential-libsecret's rule).
    private static func check(query: NetworkCredential) throws(SecretError) {
        if query.protocol.isEmpty || (query.host == nil && query.path == nil) {
            throw .invalidInput(reason: "a credential request needs a protocol and a host (or a path); this one has \(query.protocol.isEmpty ? "no protocol" : "neither host nor path")")
        }
    }
}
#endif
