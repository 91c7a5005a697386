#if Secrets
import Dispatch
import Foundation
import Logging
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
/// told was stored. Folders are 0700 and files 0600 whatever the umask, and are judged (owner,
/// mode, kind) on every read as on every write. A vault that does not decrypt (truncated, a
/// changed byte) is reported as ``VaultError/damaged(path:reason:)`` and never overwritten until
/// ``setAsideDamagedVault()`` moves it aside.
///
/// The contents are sealed with a key derived from the identity (the sealed `VaultContents`): a
/// `vault.age` someone encrypted to the public key in `recipient.txt` is refused
/// (``VaultError/unauthenticated(path:reason:)``), and so is an older copy put back, which this
/// machine's record of the vault's generation notices (``VaultError/rolledBack(path:reason:)``;
/// ``acceptRestoredVault()`` takes a copy restored on purpose). A vault in the unsealed format
/// of earlier releases is never accepted by a read, on any machine — anyone with its public key
/// could have written one — but only by the named step ``upgradeUnsealedVault()``
/// (`rizq-prefs secret upgrade`), which its owner runs once and which seals it. A write may not make `vault.age` larger than ``maximumVaultSize``
/// (``VaultError/vaultFull(path:size:limit:room:)``); a read accepts up to ``readLimit``, so
/// that a vault an older release let grow past it is read and shrunk by deleting.
///
/// The identity, once unlocked, is kept in this object's memory for its lifetime (``lock()``
/// forgets it), and so are the decrypted contents last read or written, keyed by the stamp of
/// `vault.age` (device, inode, size, modification and change times to the nanosecond): a read
/// while the file is unchanged costs a `stat` of `recipient.txt` and of `vault.age`, and a read
/// after any other process's write reads the file again. ``lock()`` forgets them too, and a
/// failure is never cached. Blocking work (files, `systemd-creds`, scrypt) never runs on the Swift
/// concurrency pool in the `async` forms.
public final class VaultSecretStore: FileBackedSecretStore {
    /// The service whose vault this is (a folder name; usually the app id).
    public let service: String
    /// Where the files are and where the key comes from.
    public let configuration: VaultConfiguration
    private let layoutResult: Result<VaultLayout, VaultError>
    /// The unlocked identity, for this object's lifetime.
    private let unlocked = Mutex<AgeX25519Identity?>(nil)
    /// The recipient and contents last read or written, keyed by their files' stamps.
    private let cache = Mutex(VaultReadCache())

    /// The largest `vault.age` a write produces (256 MiB): a write that would cross it, or make
    /// a vault already over it larger, is refused.
    public static let maximumVaultSize = 256 << 20
    /// The largest `vault.age` a read accepts (512 MiB, age's own bound here): twice what a write
    /// produces, so that a vault an older release let grow past ``maximumVaultSize`` can still be
    /// read, listed and shrunk. Bounds what a damaged or hostile file can make us hold.
    public static let readLimit = Age.maximumFileSize

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

    /// Stores `bytes` for `account` with `lifetime` (kept inside the encrypted item), replacing
    /// what was there, lifetime included; makes the vault (with
    /// ``VaultConfiguration/newVaultSlots``) if there is none.
    /// - Throws: ``VaultError/vaultFull(path:size:limit:room:)`` when the vault would grow past
    ///   ``maximumVaultSize``, saying how large a secret still fits.
    public func store(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime? = nil) throws(VaultError) {
        try validate(account: account, label: label, size: bytes.count)
        if let problem = lifetime?.problem { throw .invalidInput(reason: problem) }
        let now = Date()
        let label = label ?? SecretInput.defaultLabel(service: service, account: account)
        do {
            _ = try mutate(createIfMissing: true) { (contents: inout VaultContents) throws(VaultError) -> Bool in
                let created = contents.items[account]?.created ?? now
                contents.setItem(
                    VaultItem(data: bytes, isText: isText, label: label, created: created, modified: now, lifetime: lifetime), forAccount: account)
                return true
            }
        } catch .vaultFull(let path, let size, let limit, nil) {
            throw .vaultFull(path: path, size: size, limit: limit, room: Self.room(forSecretOf: bytes.count, inVaultOf: size, limit: limit))
        }
    }

    /// About how many bytes a secret could hold, when one of `secretSize` bytes made the vault
    /// `vaultSize`: the vault without it, then base64 (4 bytes per 3) and age's 16-byte tag per
    /// 64 KiB chunk, with a margin for the item's JSON.
    static func room(forSecretOf secretSize: Int, inVaultOf vaultSize: Int, limit: Int) -> Int {
        let encoded = (secretSize + 2) / 3 * 4
        let sealed = encoded + encoded / (64 << 10) * 16 + 16
        let without = max(0, vaultSize - sealed)
        let free = max(0, limit - without - 512)
        return max(0, free * 3 / 4 - free / (64 << 10) * 16)
    }

    /// Removes `account`'s item; `false` when there was none (or no vault).
    public func remove(account: String) throws(VaultError) -> Bool {
        try validate(account: account)
        return try mutate(createIfMissing: false) { (contents: inout VaultContents) throws(VaultError) -> Bool in
            contents.removeItem(forAccount: account) != nil
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
        guard try layout.checkFolder() else { return nil }
        return try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) -> String? in
            guard PrivateFiles.exists(layout.vault) else { return nil }
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            let aside = layout.vault + ".damaged-" + stamp
            try PrivateFiles.move(layout.vault, to: aside)
            return aside
        }
    }

    /// Takes the vault as it is now, when you put an older copy back on purpose (a restore from
    /// a backup): forgets this machine's record of its generation, so that the next read accepts
    /// it (and records it, sealing it if it is in the old format). Nothing else changes.
    ///
    /// Only for a copy you restored yourself: the refusal it lifts is what notices someone else
    /// putting an older vault, or one written to the public key, in place of yours.
    public func acceptRestoredVault() throws(VaultError) {
        let layout = try layout()
        forgetCache()
        try generationRecord(layout).remove()
    }

    /// Takes a vault in the unsealed format of earlier releases as its owner's, and seals it:
    /// the one way such a vault is ever accepted (a read refuses it with
    /// ``VaultError/unauthenticated(path:reason:)``, since anyone with its public key,
    /// `recipient.txt`, could have written it). Run it once, for a vault you wrote before the
    /// upgrade. Returns whether there was an unsealed vault to seal (`false`: none, or sealed).
    @discardableResult
    public func upgradeUnsealedVault() throws(VaultError) -> Bool {
        forgetCache()
        var wasUnsealed = false
        _ = try mutate(createIfMissing: false, acceptingUnsealed: true) { (contents: inout VaultContents) throws(VaultError) -> Bool in
            wasUnsealed = !contents.isAuthenticated
            return false
        }
        return wasUnsealed
    }

    /// This machine's record of the vault's generation.
    func generationRecord(_ layout: VaultLayout) -> VaultGenerationRecord {
        VaultGenerationRecord(folder: layout.folder, stateFolder: configuration.stateFolder)
    }

    // MARK: - SecretStore

    /// Stores the secret in the vault (see ``store(_:isText:forAccount:label:lifetime:)``), with no lifetime.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: nil)
    }

    /// Stores the secret in the vault with its lifetime (see ``store(_:isText:forAccount:label:lifetime:)``).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        do { try store(bytes, isText: isText, forAccount: account, label: label, lifetime: lifetime) } catch { throw error.secretError }
    }

    /// The stored bytes, or `nil` when there is no such item, no vault, or the secret expired.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try readSecret(forAccount: account)?.bytes
    }

    /// The stored secret, found or expired, or `nil` when there is no such item or no vault.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        do { return try item(forAccount: account).map { SecretReading.of($0.data, lifetime: $0.lifetime) } } catch { throw error.secretError }
    }

    /// Removes the item; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        do { return try remove(account: account) } catch { throw error.secretError }
    }

    /// The accounts, sorted.
    public func accounts() throws(SecretError) -> [String] {
        do { return try accountNames() } catch { throw error.secretError }
    }

    /// "the vault", for an error.
    public var storeDescription: String { "the vault" }

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
        return try retryingRaces(layout) { () throws(VaultError) -> VaultContents? in
            guard let recipient = try recipient(layout) else { return nil }
            return try contents(layout, recipient: recipient, identity: nil)
        }
    }

    /// Runs a read that takes no lock, again (at most twice) when it failed in a way a writer
    /// replacing the files meanwhile explains — a re-key between reading `recipient.txt` and
    /// `vault.age`, a newer generation recorded between reading the file and judging it — and
    /// the files did change under it. A failure on files that stayed put is the answer.
    func retryingRaces<T>(_ layout: VaultLayout, _ body: () throws(VaultError) -> T) throws(VaultError) -> T {
        var attempt = 0
        while true {
            let before = [try? PrivateFiles.stamp(of: layout.recipient), try? PrivateFiles.stamp(of: layout.vault)]
            do {
                return try body()
            } catch {
                attempt += 1
                let after = [try? PrivateFiles.stamp(of: layout.recipient), try? PrivateFiles.stamp(of: layout.vault)]
                switch error {
                case .damaged, .rolledBack, .wrongKey:
                    guard attempt < 3, before != after else { throw error }
                default:
                    throw error
                }
            }
        }
    }

    /// The vault's recipient, from the cache while `recipient.txt`'s stamp is the cached one;
    /// `nil` when there is no vault.
    func recipient(_ layout: VaultLayout) throws(VaultError) -> String? {
        do throws(VaultError) {
            // The folder is judged on every read, as on every write.
            guard try layout.checkFolder(), let stamp = try PrivateFiles.stamp(of: layout.recipient) else {
                forgetCache()
                return nil
            }
            if let cached = cache.withLock({ $0.recipient }), cached.stamp == stamp { return cached.recipient }
            guard let (recipient, readStamp) = try layout.readStampedRecipient() else {
                forgetCache()
                return nil
            }
            cache.withLock { $0.recipient = .init(stamp: readStamp, recipient: recipient) }
            return recipient
        } catch {
            forgetCache()
            throw error
        }
    }

    /// The contents of `vault.age` (empty when it does not exist), from the cache while its
    /// stamp is the cached one and the identity is in memory. Otherwise it is read, its header
    /// parsed (damage is reported before any key source is asked), the identity unlocked
    /// (`identity`, when the caller has it already), and it is decrypted, its seal checked, its
    /// generation judged against this machine's record (and recorded), once.
    ///
    /// Contents in the unsealed format of earlier releases are refused
    /// (``VaultError/unauthenticated(path:reason:)``) unless `acceptingUnsealed` (only
    /// ``upgradeUnsealedVault()``): a read never accepts them.
    func contents(_ layout: VaultLayout, recipient: String, identity: AgeX25519Identity?, acceptingUnsealed: Bool = false) throws(VaultError) -> VaultContents {
        do throws(VaultError) {
            guard let stamp = try PrivateFiles.stamp(of: layout.vault) else {
                cache.withLock { $0.contents = nil }
                return VaultContents()
            }
            // The identity must still be in memory: after lock(), reading needs the key again.
            if identity != nil || remembered(recipient: recipient) != nil,
               let cached = cache.withLock({ $0.contents(stamp: stamp, recipient: recipient) }) {
                return cached
            }
            guard let (file, readStamp) = try readVault(layout) else {
                cache.withLock { $0.contents = nil }
                return VaultContents()
            }
            // The next open after a writer was killed: no copy of it stays behind.
            PrivateFiles.removeAbandonedTemporaries(in: layout.folder)
            generationRecord(layout).removeAbandonedTemporaries()
            let header = try parseHeader(file, path: layout.vault)
            let key: AgeX25519Identity
            if let identity { key = identity } else { key = try unlockedIdentity(recipient: recipient) }
            let contents = try decrypt(file, header: header, identity: key, path: layout.vault)
            let record = generationRecord(layout)
            try record.judge(contents, recipient: recipient, vault: layout.vault)
            guard contents.isAuthenticated else {
                guard acceptingUnsealed else { throw Self.unsealed(layout) }
                return contents
            }
            noteGeneration(contents.generation, recipient: recipient, record: record)
            cache.withLock { $0.contents = .init(stamp: readStamp, recipient: recipient, contents: contents) }
            return contents
        } catch {
            cache.withLock { $0.contents = nil }
            throw error
        }
    }

    /// The refusal of a vault in the unsealed format of earlier releases, with the named step
    /// that takes it.
    static func unsealed(_ layout: VaultLayout) -> VaultError {
        .unauthenticated(
            path: layout.vault,
            reason: "it is in the unsealed format of releases before this one, which anyone with its public key (recipient.txt) could have written, so no read accepts it; if it is the vault you wrote before upgrading, take it and seal it once with `rizq-prefs secret upgrade --service '\(layout.service)'` (upgradeUnsealedVault()); else restore the sealed vault from a backup")
    }

    /// Caches `contents`, just written as the file with `stamp` under `recipient`.
    func cacheContents(stamp: FileStamp, recipient: String, contents: VaultContents) {
        cache.withLock { $0.contents = .init(stamp: stamp, recipient: recipient, contents: contents) }
    }

    /// Empties the cache: after a failure, and when the key is forgotten.
    func forgetCache() {
        cache.withLock { $0 = VaultReadCache() }
    }

    /// A header that does not parse is damage, reported before any key source is asked.
    func parseHeader(_ file: Data, path: String) throws(VaultError) -> AgeHeader {
        do {
            return try AgeHeader.parse(file)
        } catch {
            throw .damaged(path: path, reason: error.description)
        }
    }

    /// `vault.age`'s bytes and stamp, at most ``readLimit`` of them; `nil` when it does not exist.
    func readVault(_ layout: VaultLayout) throws(VaultError) -> (data: Data, stamp: FileStamp)? {
        do {
            guard let (bytes, stamp) = try PrivateFile.read(layout.vault, trust: PrivateFiles.vaultFile, limit: Self.readLimit) else { return nil }
            return (Data(bytes), stamp)
        } catch {
            if case .tooLarge(let size, _) = error.problem {
                throw .damaged(path: layout.vault, reason: "it is \(size) bytes, more than the \(Self.readLimit >> 20) MiB a read accepts; decrypt it with `age -d` and split it by hand")
            }
            throw error.vaultError
        }
    }

    /// Decrypts `vault.age` (its `header` parsed by ``parseHeader(_:path:)``) with the vault's
    /// own identity and checks its seal: a failure to decrypt is damage, a seal that does not
    /// verify ``VaultError/unauthenticated(path:reason:)``.
    func decrypt(_ file: Data, header: AgeHeader, identity: AgeX25519Identity, path: String) throws(VaultError) -> VaultContents {
        var plaintext: Data
        do {
            plaintext = try Age.decrypt(file, header: header, with: [identity])
        } catch .noMatchingIdentity {
            throw .damaged(path: path, reason: "no stanza of its header opens with the vault's own key (recipient.txt): the header was changed")
        } catch {
            throw .damaged(path: path, reason: error.description)
        }
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try VaultContents.decode(plaintext, path: path, service: service, sealKey: VaultSeal.key(of: identity))
    }

    /// Records a generation read or written; a record that cannot be written leaves the vault
    /// working (the next read tries again), and is logged.
    func noteGeneration(_ generation: UInt64, recipient: String, retiring: String? = nil, record: VaultGenerationRecord) {
        do {
            try record.advance(recipient: recipient, generation: generation, retiring: retiring)
        } catch {
            Logger.rizqSecrets.warning("the vault's generation could not be recorded; an older copy put back would not be noticed", metadata: ["service": "\(service)", "error": "\(error)"])
        }
    }

    /// Read, change, write under the vault's lock: the change sees every write acknowledged
    /// before, and a damaged vault stops it before anything is written. `body` returns whether
    /// it changed anything (nothing is written otherwise). `nil`: no vault and not `createIfMissing`.
    ///
    /// The key is unlocked before the lock is taken (a passphrase command or prompt must not
    /// hold other writers up), after a first look at the header (damage is reported before any
    /// key source is asked; not needed when the cached contents are those of the file as it
    /// is). Under the lock the file's stamp is taken again, as another writer may have replaced
    /// it meanwhile: it is read and decrypted only if it is not the cached one. What is written
    /// becomes the cache, under the stamp of the new file. Contents in the unsealed format of
    /// earlier releases are refused, but with `acceptingUnsealed` (``upgradeUnsealedVault()``),
    /// which writes them sealed even when `body` changes nothing.
    private func mutate(
        createIfMissing: Bool, acceptingUnsealed: Bool = false, _ body: (inout VaultContents) throws(VaultError) -> Bool
    ) throws(VaultError) -> Bool? {
        let layout = try layout()
        let unlocked: (recipient: String, identity: AgeX25519Identity)?
        if let recipient = try recipient(layout) {
            try firstLook(layout, recipient: recipient)
            unlocked = (recipient, try unlockedIdentity(recipient: recipient))
        } else if !createIfMissing {
            return nil
        } else {
            unlocked = nil
        }
        try layout.ensureFolders()
        do throws(VaultError) {
            return try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) -> Bool? in
                PrivateFiles.removeAbandonedTemporaries(in: layout.folder)
                var contents: VaultContents
                let identity: AgeX25519Identity
                let recipient: String
                if let current = try self.recipient(layout) {
                    // Made, or made again, by another process since the first look: unlock for it.
                    if let unlocked, unlocked.recipient == current {
                        identity = unlocked.identity
                    } else {
                        identity = try unlockedIdentity(recipient: current)
                    }
                    recipient = current
                    contents = try self.contents(layout, recipient: current, identity: identity, acceptingUnsealed: acceptingUnsealed)
                } else {
                    guard createIfMissing else { return nil }
                    identity = try createLocked(layout: layout, slots: configuration.newVaultSlots ?? automaticSlots(layout: layout))
                    recipient = identity.recipient.string
                    contents = VaultContents()
                }
                // The cache lets go of the contents while they change, so that the change and the
                // write work on the only copy instead of copying every item (issue 39); it gets
                // them back below, as written or unchanged.
                let cached = cache.withLock { cache in
                    defer { cache.contents = nil }
                    return cache.contents?.stamp
                }
                let changed = try body(&contents)
                guard changed || !contents.isAuthenticated else {
                    if let cached { cacheContents(stamp: cached, recipient: recipient, contents: contents) }
                    return false
                }
                let (stamp, written) = try write(consume contents, to: layout, identities: [identity], recipient: recipient)
                cache.withLock { $0.contents = .init(stamp: stamp, recipient: recipient, contents: written) }
                return changed
            }
        } catch {
            forgetCache()
            throw error
        }
    }

    /// The header check before the key is asked for, skipped when the cache holds the contents
    /// of `vault.age` as it is (its header parsed when they were read).
    private func firstLook(_ layout: VaultLayout, recipient: String) throws(VaultError) {
        do throws(VaultError) {
            if let stamp = try PrivateFiles.stamp(of: layout.vault),
               cache.withLock({ $0.contents(stamp: stamp, recipient: recipient) }) != nil {
                return
            }
            if let (file, _) = try readVault(layout) {
                _ = try parseHeader(file, path: layout.vault)
            }
        } catch {
            forgetCache()
            throw error
        }
    }

    /// Seals, encrypts to `identities` (one, or two while a re-key is under way) and durably
    /// replaces `vault.age` as the next generation (after the higher of the one read and the one
    /// this machine recorded), then records it for `recipient` (what `recipient.txt` says), the
    /// record flushed with the vault (``VaultGenerationRecord/advance(recipient:retiring:after:failed:alongside:)``).
    /// Only the items that changed since these contents were last written are encoded again.
    /// Returns the new file's stamp and the contents as written.
    /// - Throws: ``VaultError/vaultFull(path:size:limit:room:)`` when the file would be larger
    ///   than ``maximumVaultSize`` and than it is now (a vault already over it may shrink).
    @discardableResult
    func write(_ contents: consuming VaultContents, to layout: VaultLayout, identities: [AgeX25519Identity], recipient: String, retiring: String? = nil) throws(VaultError) -> (stamp: FileStamp, contents: VaultContents) {
        let last = contents.generation
        // Sealing an unsealed vault (upgradeUnsealedVault()) adds the seal's few bytes, even to a
        // vault an earlier release let grow past the limit: it must still be taken.
        let slack = contents.isAuthenticated ? 0 : 64 << 10
        var next = consume contents
        next.isAuthenticated = true
        let record = generationRecord(layout)
        let failed = { (error: VaultError) in
            Logger.rizqSecrets.warning("the vault's generation could not be recorded; an older copy put back would not be noticed", metadata: ["service": "\(self.service)", "error": "\(error)"])
        }
        return try record.advance(recipient: recipient, retiring: retiring, after: last, failed: failed) { (generation: UInt64) throws(VaultError) -> (stamp: FileStamp, contents: VaultContents) in
            next.generation = generation
            let frame = try next.frame(service: service, generation: generation, sealKeys: identities.map { VaultSeal.key(of: $0) })
            let file: Data
            do {
                // Streamed into age's chunks: the plaintext (every secret) is never in one buffer.
                file = try Age.encrypt(to: identities.map(\.recipient), plaintextCount: frame.count) { (sink: inout AgePlaintextSink) throws(AgeError) in
                    try next.write(frame, into: &sink)
                }
            } catch {
                throw .fileSystem(path: layout.vault, operation: "encrypt", reason: "\(error)")
            }
            if file.count > Self.maximumVaultSize {
                let current = ((try? PrivateFiles.stamp(of: layout.vault)) ?? nil).map { Int($0.size) } ?? 0
                if file.count > current + slack { throw .vaultFull(path: layout.vault, size: file.count, limit: Self.maximumVaultSize, room: nil) }
            }
            return (try PrivateFiles.replace(layout.vault, with: file), next)
        }
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
#endif
