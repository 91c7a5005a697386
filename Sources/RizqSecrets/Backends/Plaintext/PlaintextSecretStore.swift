#if Secrets
import Foundation
import RizqCore

/// Secrets in plain text: `<root>/<service>/plaintext.json` (0600, in a 0700 folder), the JSON
/// object the vault encrypts — `{account: {data (base64), isText, label, created, modified}}` —
/// written atomically under the same lock as the vault.
///
/// Anyone who can read the file, or a copy of it, reads every secret: it is for throw-away
/// machines (a CI job's scratch container) where nothing else can be set up. A
/// ``ChainedSecretStore`` uses it only when it is named explicitly (`RIZQ_SECRETS_BACKEND=plaintext`,
/// an order that lists it, the API); it is never chosen automatically.
public final class PlaintextSecretStore: SecretBackend {
    /// The service whose file this is.
    public let service: String
    /// The folder holding one folder per service (the vault's root).
    public let root: String
    /// How long a write waits for another writer, seconds.
    public let lockTimeout: Double
    private let layoutResult: Result<VaultLayout, VaultError>

    /// The plain-text store of `service` (`nil`: the app id) under `root` (default: the vault's).
    public init(service: String? = nil, root: String = VaultConfiguration.defaultRoot(), lockTimeout: Double = 30) {
        let service = service ?? AppIdentity.current
        self.service = service
        self.root = root
        self.lockTimeout = lockTimeout
        layoutResult = Result { () throws(VaultError) -> VaultLayout in try VaultLayout(service: service, root: root) }
    }

    /// The file, `<root>/<service>/plaintext.json`.
    public var path: String { (try? layoutResult.get().plaintext) ?? root + "/" + service + "/plaintext.json" }

    /// Stores the secret in the file, with no lifetime.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: nil)
    }

    /// Stores the secret in the file with its lifetime (in the item, as plain as the secret).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count, lifetime: lifetime)
        let label = label ?? SecretInput.defaultLabel(service: service, account: account)
        let now = Date()
        _ = try mutate { contents in
            let created = contents.items[account]?.created ?? now
            contents.setItem(
                VaultItem(data: bytes, isText: isText, label: label, created: created, modified: now, lifetime: lifetime), forAccount: account)
            return true
        }
    }

    /// The stored bytes, or `nil` (none, or expired).
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try readSecret(forAccount: account)?.bytes
    }

    /// The stored secret, found or expired, or `nil`.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        try SecretInput.validate(service: service, account: account)
        return try contents()?.items[account].map { SecretReading.of($0.data, lifetime: $0.lifetime) }
    }

    /// Removes the item; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        return try mutate { contents in contents.removeItem(forAccount: account) != nil }
    }

    /// The accounts, sorted.
    public func accounts() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        return try contents()?.items.keys.sorted() ?? []
    }

    /// `plaintext`.
    public var name: SecretBackendName { .plaintext }

    /// Plain text stores and deletes.
    public var isWritable: Bool { true }

    /// Plain text: a chain warns on every write, and writes here only when it was named.
    public var storesPlainText: Bool { true }

    /// "in /x/plaintext.json", the file that holds every secret of the service.
    public func location(ofAccount account: String) -> String? { "in " + path }

    /// Whether the service name can name a folder for the file.
    public var canHoldService: Bool { (try? layoutResult.get()) != nil }

    /// The backend as it declares itself: always there (it is a file), protecting nothing. A
    /// chain shows it in its order only when it was named.
    public func probe() -> SecretBackendStatus {
        SecretBackendStatus(
            backend: name, isAvailable: canHoldService,
            reason: "secrets are stored unencrypted in \(path), readable by anyone who can read the file or a copy of it; never chosen automatically: name it (RIZQ_SECRETS_BACKEND=plaintext) only where nothing else can be set up",
            isWritable: true, persistence: .untilDeleted, protections: [.plaintext], location: path)
    }

    // MARK: - The file

    private func layout() throws(SecretError) -> VaultLayout {
        do { return try layoutResult.get() } catch { throw error.secretError }
    }

    private func contents() throws(SecretError) -> VaultContents? {
        let layout = try layout()
        let data: Data?
        do {
            data = try layout.checkFolder() ? PrivateFiles.read(layout.plaintext, limit: VaultSecretStore.maximumVaultSize) : nil
        } catch {
            throw error.secretError
        }
        guard let data else { return nil }
        do {
            return try VaultContents.decode(data, path: layout.plaintext)
        } catch {
            throw .damaged(path: layout.plaintext, detail: "the plain-text secrets file \(layout.plaintext) is not the JSON it should be; it was left as it is: restore it from a backup, or move it away to start empty")
        }
    }

    private func mutate(_ body: (inout VaultContents) -> Bool) throws(SecretError) -> Bool {
        let layout = try layout()
        do {
            try PrivateFiles.ensureFolder(layout.root, trust: VaultLayout.rootTrust, tightening: false)
            try PrivateFiles.ensureFolder(layout.folder)
            return try VaultLock.holding(layout.lock, timeout: lockTimeout) { () throws(VaultError) -> Bool in
                PrivateFiles.removeAbandonedTemporaries(in: layout.folder)
                var contents = VaultContents()
                if let data = try PrivateFiles.read(layout.plaintext, limit: VaultSecretStore.maximumVaultSize) {
                    contents = try VaultContents.decode(data, path: layout.plaintext)
                }
                guard body(&contents) else { return false }
                try PrivateFiles.replace(layout.plaintext, with: try contents.encoded())
                return true
            }
        } catch {
            throw error.secretError
        }
    }
}
#endif
