import Dispatch
import Foundation
import RizqAge
import RizqCore
import Synchronization

/// A `SecretStore` that keeps one service's secrets in an encrypted file, for machines with no
/// desktop keyring: servers, containers, CI, cron, SSH sessions, systemd services.
///
/// The vault is `<root>/<service>/vault.age`, an age v1 file (c2sp.org/age) encrypted to the
/// vault's own X25519 key, so that Debian's `age` tool can always read it; its plaintext is a
/// JSON object of accounts, so account names never appear on disk. The key (the *identity*)
/// sits in key slots — systemd-creds, a passphrase, a key file — and an unlock may cache it in
/// the kernel keyring for a time. See <doc:Vault> for the files, the slots, recovery with stock
/// tools, and what each slot protects against.
///
/// ```swift
/// let vault = VaultSecretStore(service: "com.rizq.app")   // configuration: .fromEnvironment()
/// try vault.setSecret(token, forAccount: "auth_token")    // makes the vault on first use
/// let token = try vault.secret(forAccount: "auth_token")  // String?, nil when absent
/// ```
///
/// Writes are atomic and serialised across processes by a lock file: a reader sees the old
/// vault or the new one, and a writer killed at any moment loses nothing another writer was
/// told was stored. Folders are 0700 and files 0600 whatever the umask. A vault that does not
/// decrypt (truncated, a changed byte) is reported as ``VaultError/damaged(path:reason:)`` and
/// never overwritten until ``setAsideDamagedVault()`` moves it aside.
///
/// The identity, once unlocked, is kept in this object's memory for its lifetime (``lock()``
/// forgets it). Blocking work (files, `systemd-creds`, scrypt) never runs on the Swift
/// concurrency pool in the `async` forms.
public final class VaultSecretStore: SecretStore {
    /// The service whose vault this is (a folder name; usually the app id).
    public let service: String
    /// Where the files are and where the key comes from.
    public let configuration: VaultConfiguration
    private let layoutResult: Result<VaultLayout, VaultError>
    /// The unlocked identity, for this object's lifetime.
    private let unlocked = Mutex<AgeX25519Identity?>(nil)

    /// The largest `vault.age` read: bounds what a damaged or hostile file can make us hold.
    static let maximumVaultSize = 256 << 20

    /// The vault of `service` (`nil`: `RIZQ_PREFS_APP_ID`, else the executable's name). Nothing
    /// is touched on disk until the first call.
    public init(service: String? = nil, configuration: VaultConfiguration = .fromEnvironment()) {
        let service = service ?? AppIdentity.current
        self.service = service
        self.configuration = configuration
        self.layoutResult = Result { () throws(VaultError) -> VaultLayout in try VaultLayout(service: service, root: configuration.root) }
    }

    /// The vault's folder, `<root>/<service>`.
    public var folder: String {
        (try? layoutResult.get().folder) ?? configuration.root + "/" + service
    }

    /// Whether the vault exists (its `recipient.txt` does).
    public var exists: Bool {
        guard let layout = try? layoutResult.get() else { return false }
        return PrivateFiles.exists(layout.recipient)
    }

    func layout() throws(VaultError) -> VaultLayout {
        try layoutResult.get()
    }

    // MARK: - Typed operations

    /// The item stored for `account`, with its metadata, or `nil`.
    public func item(forAccount account: String) throws(VaultError) -> VaultItem? {
        try validate(account: account)
        return try readContents()?.items[account]
    }

    /// Stores `bytes` for `account`, replacing what was there; makes the vault (with
    /// ``VaultConfiguration/newVaultSlots``) if there is none.
    public func store(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(VaultError) {
        try validate(account: account, label: label, size: bytes.count)
        let now = Date()
        let label = label ?? SecretInput.defaultLabel(service: service, account: account)
        _ = try mutate(createIfMissing: true) { (contents: inout VaultContents) throws(VaultError) -> Bool in
            let created = contents.items[account]?.created ?? now
            contents.items[account] = VaultItem(data: bytes, isText: isText, label: label, created: created, modified: now)
            return true
        }
    }

    /// Removes `account`'s item; `false` when there was none (or no vault).
    public func remove(account: String) throws(VaultError) -> Bool {
        try validate(account: account)
        return try mutate(createIfMissing: false) { (contents: inout VaultContents) throws(VaultError) -> Bool in
            contents.items.removeValue(forKey: account) != nil
        } ?? false
    }

    /// The accounts stored, sorted.
    public func accountNames() throws(VaultError) -> [String] {
        try readContents()?.items.keys.sorted() ?? []
    }

    /// Moves `vault.age` aside to `vault.age.damaged-<time>` (kept, 0600), so that the next
    /// store starts an empty vault with the same key. The explicit force a damaged vault needs;
    /// it does not check whether the file is damaged. Returns the new path, `nil` when there was
    /// no `vault.age`.
    public func setAsideDamagedVault() throws(VaultError) -> String? {
        let layout = try layout()
        guard PrivateFiles.exists(layout.folder) else { return nil }
        return try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) -> String? in
            guard PrivateFiles.exists(layout.vault) else { return nil }
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            let aside = layout.vault + ".damaged-" + stamp
            try PrivateFiles.move(layout.vault, to: aside)
            return aside
        }
    }

    // MARK: - SecretStore

    /// Stores the secret in the vault (see ``store(_:isText:forAccount:label:)``).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        do { try store(bytes, isText: isText, forAccount: account, label: label) } catch { throw error.secretError }
    }

    /// The stored bytes, or `nil` when there is no such item or no vault.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        do { return try item(forAccount: account)?.data } catch { throw error.secretError }
    }

    /// Removes the item; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        do { return try remove(account: account) } catch { throw error.secretError }
    }

    /// The accounts, sorted.
    public func accounts() throws(SecretError) -> [String] {
        do { return try accountNames() } catch { throw error.secretError }
    }

    /// The synchronous `storeSecret`, on a dispatch thread, not the Swift concurrency pool.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError) {
        try await offload { () throws(SecretError) in try self.storeSecret(bytes, isText: isText, forAccount: account, label: label) }
    }

    /// The synchronous `secretBytes(forAccount:)`, on a dispatch thread.
    public func secretBytes(forAccount account: String) async throws(SecretError) -> Data? {
        try await offload { () throws(SecretError) -> Data? in try self.secretBytes(forAccount: account) }
    }

    /// The synchronous `deleteSecret(forAccount:)`, on a dispatch thread.
    public func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool {
        try await offload { () throws(SecretError) -> Bool in try self.deleteSecret(forAccount: account) }
    }

    /// The synchronous `accounts()`, on a dispatch thread.
    public func accounts() async throws(SecretError) -> [String] {
        try await offload { () throws(SecretError) -> [String] in try self.accounts() }
    }

    private func offload<T: Sendable>(_ work: @escaping @Sendable () throws(SecretError) -> T) async throws(SecretError) -> T {
        // No deadline of its own: every step has one (the lock's wait, the key-source programs).
        try await BlockingCall.run(on: .global(), timeout: nil, onTimeout: .deadlineExceeded(seconds: 0, detail: "the vault"), work)
    }

    // MARK: - Reading and writing the vault

    private func validate(account: String, label: String? = nil, size: Int? = nil) throws(VaultError) {
        do {
            try SecretInput.validate(service: service, account: account, label: label, secretSize: size)
        } catch {
            if case .invalidInput(let reason) = error { throw .invalidInput(reason: reason) }
            throw .invalidInput(reason: error.description)
        }
        _ = try layout()
    }

    /// The vault's contents, `nil` when there is no vault.
    private func readContents() throws(VaultError) -> VaultContents? {
        let layout = try layout()
        guard let recipient = try layout.readRecipient() else { return nil }
        guard let file = try PrivateFiles.read(layout.vault, limit: Self.maximumVaultSize) else { return VaultContents() }
        try checkHeader(file, path: layout.vault)
        let identity = try unlockedIdentity(recipient: recipient)
        return try decrypt(file, identity: identity, path: layout.vault)
    }

    /// A header that does not parse is damage, reported before any key source is asked.
    func checkHeader(_ file: Data, path: String) throws(VaultError) {
        do {
            _ = try AgeHeader.parse(file)
        } catch {
            throw .damaged(path: path, reason: error.description)
        }
    }

    /// Decrypts `vault.age` with the vault's own identity: any failure is damage.
    func decrypt(_ file: Data, identity: AgeX25519Identity, path: String) throws(VaultError) -> VaultContents {
        let plaintext: Data
        do {
            plaintext = try Age.decrypt(file, with: [identity])
        } catch .noMatchingIdentity {
            throw .damaged(path: path, reason: "no stanza of its header opens with the vault's own key (recipient.txt): the header was changed")
        } catch {
            throw .damaged(path: path, reason: error.description)
        }
        return try VaultContents.decode(plaintext, path: path)
    }

    /// Read, change, write under the vault's lock: the change sees every write acknowledged
    /// before, and a damaged vault stops it before anything is written. `body` returns whether
    /// it changed anything (nothing is written otherwise). `nil`: no vault and not `createIfMissing`.
    ///
    /// The key is unlocked before the lock is taken (a passphrase command or prompt must not
    /// hold other writers up), after a first look at the header (damage is reported before any
    /// key source is asked); under the lock the file is read again, as another writer may have
    /// replaced it meanwhile.
    private func mutate(createIfMissing: Bool, _ body: (inout VaultContents) throws(VaultError) -> Bool) throws(VaultError) -> Bool? {
        let layout = try layout()
        let unlocked: (recipient: String, identity: AgeX25519Identity)?
        if let recipient = try layout.readRecipient() {
            if let file = try PrivateFiles.read(layout.vault, limit: Self.maximumVaultSize) { try checkHeader(file, path: layout.vault) }
            unlocked = (recipient, try unlockedIdentity(recipient: recipient))
        } else if !createIfMissing {
            return nil
        } else {
            unlocked = nil
        }
        try layout.ensureFolders()
        return try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) -> Bool? in
            PrivateFiles.removeStaleTemporaries(in: layout.folder, for: "vault.age")
            var contents = VaultContents()
            let identity: AgeX25519Identity
            if let recipient = try layout.readRecipient() {
                // Made, or made again, by another process since the first look: unlock for it.
                if let unlocked, unlocked.recipient == recipient {
                    identity = unlocked.identity
                } else {
                    identity = try unlockedIdentity(recipient: recipient)
                }
                if let file = try PrivateFiles.read(layout.vault, limit: Self.maximumVaultSize) {
                    try checkHeader(file, path: layout.vault)
                    contents = try decrypt(file, identity: identity, path: layout.vault)
                }
            } else {
                guard createIfMissing else { return nil }
                identity = try createLocked(layout: layout, slots: configuration.newVaultSlots ?? automaticSlots(layout: layout))
            }
            guard try body(&contents) else { return false }
            try write(contents, to: layout, identity: identity)
            return true
        }
    }

    func write(_ contents: VaultContents, to layout: VaultLayout, identity: AgeX25519Identity) throws(VaultError) {
        let file: Data
        do {
            file = try Age.encrypt(try contents.encoded(), to: [identity.recipient])
        } catch let error as AgeError {
            throw .fileSystem(path: layout.vault, operation: "encrypt", reason: error.description)
        } catch let error as VaultError {
            throw error
        } catch {
            throw .fileSystem(path: layout.vault, operation: "encrypt", reason: "\(error)")
        }
        try PrivateFiles.replace(layout.vault, with: file)
    }

    // MARK: - The identity in memory

    func remembered(recipient: String) -> AgeX25519Identity? {
        unlocked.withLock { identity in
            guard let identity, identity.recipient.string == recipient else { return nil }
            return identity
        }
    }

    func remember(_ identity: AgeX25519Identity?) {
        unlocked.withLock { $0 = identity }
    }
}
