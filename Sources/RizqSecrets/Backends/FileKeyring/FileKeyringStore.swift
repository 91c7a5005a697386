#if Secrets
import Dispatch
import Foundation
import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// Secrets in libsecret's *file keyring*: the file libsecret (0.20 and later) and oo7 keep an
/// app's secrets in when there is no Secret Service to reach — inside a Flatpak sandbox, keyed by
/// the master secret the Secret portal gives the app — read and written byte-compatibly, so that
/// libsecret (or a GTK widget using it) in the same app sees what this store saved, and this
/// store sees what they saved. Its backend name is `file-keyring`.
///
/// ```swift
/// let secrets = FileKeyringStore(service: "com.rizq.app")  // $XDG_DATA_HOME/keyrings/default.keyring
/// try secrets.setSecret(token, forAccount: "auth_token")
/// let token = try secrets.secret(forAccount: "auth_token")
/// ```
///
/// **Items** carry the attributes ``SecretServiceStore`` gives its items — `service`, `account`
/// and `xdg:schema` = ``SecretServiceStore/schemaName`` — with a label and the times they were
/// made and changed, so the same code finds the same items in either store, and `secret-tool
/// lookup service S account A` finds them. Attribute values are stored as HMACs, names in clear
/// (libsecret's format: the number of items and their attribute names can be seen without the
/// key). Lookups follow libsecret: an item matches when it has every attribute asked for; the
/// first in the file wins. Storing replaces the secret and label of the item a lookup finds —
/// the item libsecret would replace when its attributes are exactly these (libsecret moves it
/// to the end; here it keeps its place, so that an older duplicate never surfaces) — and keeps
/// its attributes and creation time; else it adds an item at the end. Each store counts in the
/// file's usage count and sets its modification time, as libsecret's does; a delete removes
/// every matching item and changes neither.
///
/// **The key** is derived (PBKDF2-SHA256, as the file says) from ``keySource``'s password:
/// `SECRET_FILE_TEST_PASSWORD` exactly as libsecret takes it, else inside a Flatpak sandbox the
/// Secret portal's master secret (fetched once per process, kept in locked, zeroed memory, never
/// written anywhere), else there is none and every call but a read of a missing file fails with
/// ``/RizqCore/SecretError/noKeySource(detail:)``. The file's path is ``location``:
/// `SECRET_FILE_TEST_PATH`, else `$XDG_DATA_HOME/keyrings/default.keyring`.
///
/// **Damage and foreign keys.** Every size, offset and count in the file is checked before it is
/// used; a file that does not decode is ``/RizqCore/SecretError/damaged(path:detail:)`` naming
/// the part that is wrong, and is never rewritten. libsecret has no password check (a wrong
/// password reads as "no such item", and its next store appends an item under that password);
/// here a file with items none of which opens with the key is
/// ``/RizqCore/SecretError/wrongPassphrase(detail:)``, for reads and writes alike, and nothing is
/// written. An item whose own MAC fails is damaged; the others stay readable, and a rewrite
/// carries every item it does not change byte for byte.
///
/// **Writing** goes through RizqCore's file layer: under a lock file beside the keyring
/// (`.default.keyring.lock`, between this package's writers; libsecret takes none), the file is
/// read again, changed, and replaced atomically (a temporary file, `fsync`, a rename that
/// checks the file is still the version read — a libsecret process that wrote meanwhile makes
/// the change run again on its version — and an `fsync` of the folder), 0600, judged on the way
/// in and out as a secret (the file layer's `FileTrust.secret`: this user's, nobody else's to read
/// or write). libsecret also keeps the previous version as `default.keyring~`; this store does
/// not: that copy keeps deleted secrets (encrypted) on disk, and an atomic, flushed replace needs
/// no backup. One left by libsecret is left alone.
///
/// A process keeps the decoded file and its derived key, keyed by the file's version: a read of
/// an unchanged file costs an `lstat`. The `async` forms run on a dispatch thread, never on the
/// Swift concurrency pool.
public final class FileKeyringStore: FileBackedSecretStore {
    /// The backend's name in `RIZQ_SECRETS_BACKEND`, the config file and the CLI.
    public static let backendName = SecretBackendName.fileKeyring.rawValue
    /// The largest keyring file read or written.
    public static let maximumFileSize = 256 << 20
    /// The rule the keyring file is judged by, read or written.
    static let trust = FileTrust.secret("file keyring")

    /// The `service` attribute of every item (default: `RIZQ_PREFS_APP_ID`, else the
    /// executable's name).
    public let service: String
    /// The keyring file.
    public let location: FileKeyringLocation
    /// The Flatpak sandbox this store found itself in when it was made (`nil`: none).
    public let sandbox: FlatpakSandbox?
    /// How long a fetch of the portal's secret may take.
    public let portalTimeout: Double
    private let givenPassword: FileKeyringPassword?
    private let cache = FileKeyringCache.shared

    /// The store of `service` in the keyring at `location`, keyed as libsecret would key it in
    /// this process (``keySource``). Nothing is read or written until the first call.
    public convenience init(service: String? = nil, location: FileKeyringLocation = .fromEnvironment(), portalTimeout: Double = 25) {
        self.init(service: service, location: location, sandbox: FlatpakSandbox.current, password: nil, portalTimeout: portalTimeout)
    }

    /// A store with its sandbox as given, and a password of the program's instead of the
    /// environment's or the portal's (benchmarks, tests).
    package init(service: String?, location: FileKeyringLocation, sandbox: FlatpakSandbox?, password: [UInt8]?, portalTimeout: Double = 25) {
        self.service = service ?? AppIdentity.current
        self.location = location
        self.sandbox = sandbox
        self.portalTimeout = portalTimeout
        givenPassword = password.flatMap { FileKeyringPassword.copying($0) }
    }

    /// Where the key comes from now (`SECRET_FILE_TEST_PASSWORD` is looked at each time);
    /// `nil`: nowhere, so only reads of a missing keyring succeed.
    public var keySource: FileKeyringKeySource? {
        givenPassword != nil ? .given : FileKeyringKeySource.automatic(sandbox: sandbox)
    }

    // MARK: - SecretStore

    /// Stores the secret (see the type's description for which item is replaced), with no lifetime.
    /// `isText` is not kept: the format has no content type (libsecret reads every secret back
    /// as text).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: nil)
    }

    /// Stores the secret with its lifetime: the expiry as the item's `password_expiry_utc`
    /// attribute, the refresh token as its `oauth_refresh_token` (both inside the encrypted
    /// item; the file keeps their MACs in clear, as for every attribute). `nil` drops the ones
    /// the item had.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count, lifetime: lifetime)
        let label = label ?? SecretInput.defaultLabel(service: service, account: account)
        let password = try password()
        let wanted = attributes(account: account)
        _ = try mutate(password: password, createIfMissing: true) { (file: inout FileKeyringFile, key: FileKeyringKey) throws(SecretError) -> Bool? in
            let now = Self.now()
            let query = FileKeyringQuery(wanted, key: key)
            if let index = file.items.firstIndex(where: query.matches) {
                var item = try open(file.items[index], at: index, key: key, expecting: wanted)
                item.label = label
                item.secret = Array(bytes)
                item.modified = now
                item.lifetime = lifetime
                file.items[index] = try sealed(item, key: key)
            } else {
                var item = FileKeyringItem(attributes: wanted + [.init(name: "xdg:schema", value: SecretServiceStore.schemaName)],
                                           label: label, created: now, modified: now, secret: Array(bytes))
                item.lifetime = lifetime
                file.items.append(try sealed(item, key: key))
            }
            file.usageCount &+= 1
            file.modified = now
            return true
        }
    }

    /// The secret of the first item with the account's attributes, or `nil` when there is none
    /// (or no keyring file), or it expired.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try readSecret(forAccount: account)?.bytes
    }

    /// The secret of the first item with the account's attributes, found or expired, or `nil`.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        try SecretInput.validate(service: service, account: account)
        return try item(forAccount: account).map { SecretReading.of(Data($0.secret), lifetime: $0.lifetime) }
    }

    /// Deletes every item with the account's attributes; `false` when there was none (nothing
    /// is written then).
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        guard FileStamp.of(location.path) != nil else { return false }
        let password = try password()
        let wanted = attributes(account: account)
        return try mutate(password: password, createIfMissing: false) { (file: inout FileKeyringFile, key: FileKeyringKey) throws(SecretError) -> Bool? in
            let query = FileKeyringQuery(wanted, key: key)
            let before = file.items.count
            file.items.removeAll(where: query.matches)
            if file.items.count == before, let damage = damageBehindAMiss(in: file, key: key) { throw damage }
            return file.items.count == before ? nil : true
        } ?? false
    }

    /// The `account` attributes of the items with this store's `service`, each once, sorted.
    public func accounts() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        guard let entry = try current() else { return [] }
        let wanted = [FileKeyringItem.Attribute(name: "service", value: service)]
        let query = FileKeyringQuery(wanted, key: entry.key)
        var accounts = Set<String>()
        for (index, sealed) in entry.file.items.enumerated() where query.matches(sealed) {
            if let account = try open(sealed, at: index, key: entry.key, expecting: wanted).value(of: "account") { accounts.insert(account) }
        }
        return accounts.sorted()
    }

    /// The label, times and attributes of the account's item (never its secret), or `nil`.
    public func itemInfo(forAccount account: String) throws(SecretError) -> FileKeyringItemInfo? {
        try SecretInput.validate(service: service, account: account)
        return try item(forAccount: account).map(FileKeyringItemInfo.init)
    }

    /// "the file keyring", for an error.
    public var storeDescription: String { "the file keyring" }

    // MARK: - Items

    /// The attributes that name `account`'s items.
    private func attributes(account: String) -> [FileKeyringItem.Attribute] {
        [.init(name: "account", value: account), .init(name: "service", value: service)]
    }

    /// The first item with `account`'s attributes, decrypted. A miss while an item is damaged
    /// is that damage (``damageBehindAMiss(in:key:)``), never "not found".
    private func item(forAccount account: String) throws(SecretError) -> FileKeyringItem? {
        guard let entry = try current() else { return nil }
        let wanted = attributes(account: account)
        let query = FileKeyringQuery(wanted, key: entry.key)
        guard let index = entry.file.items.firstIndex(where: query.matches) else {
            if let damage = damageBehindAMiss(in: entry.file, key: entry.key) { throw damage }
            return nil
        }
        return try open(entry.file.items[index], at: index, key: entry.key, expecting: wanted)
    }

    /// When a lookup finds nothing, the damage that may hide the item asked for: the first item
    /// whose blob does not open, or whose hashed attributes are not the hashes of the attributes
    /// sealed in it — a changed bit in a hashed name or MAC makes an item unfindable, not absent.
    /// `nil` when every item is whole (the miss is a real one).
    private func damageBehindAMiss(in file: FileKeyringFile, key: FileKeyringKey) -> SecretError? {
        for (index, sealed) in file.items.enumerated() {
            let hiding = "a lookup found nothing, and its item \(index)"
            let plaintext: [UInt8]
            do throws(FileKeyringKey.Failure) {
                plaintext = try key.open(sealed.blob)
            } catch {
                return damaged("\(hiding) " + Self.words(error) + " (it may be the one asked for)")
            }
            guard let item = try? FileKeyringItem.decode(plaintext, index: index) else {
                return damaged("\(hiding) opens but is not an item (it may be the one asked for)")
            }
            for stored in sealed.hashedAttributes {
                let value = item.attributes.first { $0.name.utf8.elementsEqual(stored.name.utf8) }?.value
                guard let value, FileKeyringQuery.sameBytes(stored.mac, key.hash(value)) else {
                    return damaged("\(hiding)'s hashed attribute '\(stored.name)' is not the hash of what the item holds (a changed byte): the item cannot be found, and it may be the one asked for")
                }
            }
        }
        return nil
    }

    /// Item `index`, decrypted; its encrypted attributes must hold `expected` (the hashed ones
    /// it was found by: a blob moved from another item would not).
    private func open(_ sealed: FileKeyringFile.SealedItem, at index: Int, key: FileKeyringKey, expecting expected: [FileKeyringItem.Attribute]) throws(SecretError) -> FileKeyringItem {
        let plaintext: [UInt8]
        do throws(FileKeyringKey.Failure) {
            plaintext = try key.open(sealed.blob)
        } catch {
            throw damaged("its item \(index) " + Self.words(error))
        }
        let item: FileKeyringItem
        do throws(FileKeyringFormatError) {
            item = try FileKeyringItem.decode(plaintext, index: index)
        } catch {
            throw damaged(error.description)
        }
        for attribute in expected where !(item.value(of: attribute.name).map { $0.utf8.elementsEqual(attribute.value.utf8) } ?? false) {
            throw damaged("its item \(index) holds encrypted attributes other than the hashed ones it is found by (its blob was moved from another item)")
        }
        return item
    }

    /// `item` sealed, with the MACs of all its attributes in clear.
    private func sealed(_ item: FileKeyringItem, key: FileKeyringKey) throws(SecretError) -> FileKeyringFile.SealedItem {
        let hashed = item.attributes.map { FileKeyringFile.HashedAttribute(name: $0.name, mac: key.hash($0.value)) }
        return FileKeyringFile.SealedItem(hashedAttributes: hashed, blob: try seal(item, key: key))
    }

    private func seal(_ item: FileKeyringItem, key: FileKeyringKey) throws(SecretError) -> [UInt8] {
        do {
            return try key.seal(item.encoded())
        } catch {
            throw .storageFailed(detail: "cannot encrypt an item for the file keyring \(location.path): \(Self.words(error))")
        }
    }

    private static func words(_ failure: FileKeyringKey.Failure) -> String {
        switch failure {
        case .blobLength(let length): return "is \(length) bytes, not AES blocks followed by an IV and a MAC"
        case .macMismatch: return "does not open with the keyring's key (its MAC does not match: it was changed, or sealed under another password)"
        case .padding: return "opens with the keyring's key but its padding is wrong (a broken writer sealed it)"
        case .sealing: return "could not be encrypted"
        case .derivation: return "has no key (an empty password or salt)"
        }
    }

    // MARK: - The file

    /// The keyring as it is now, decoded and keyed; `nil` when there is no file. From the cache
    /// while the file is the version cached (and the password the same).
    private func current() throws(SecretError) -> FileKeyringCache.Entry? {
        let path = location.path
        guard let stamp = FileStamp.of(path) else {
            cache.forget(path)
            return nil
        }
        if cache.stamp(path) == stamp, let hit = cache.entry(path, stamp: stamp, password: try password()) { return hit }
        let read: (bytes: [UInt8], stamp: FileStamp)?
        removeAbandonedTemporaries()
        do {
            read = try lockedFile.read()
        } catch {
            cache.forget(path)
            throw secretError(error)
        }
        guard let read else {
            cache.forget(path)
            return nil
        }
        return try load(read.bytes, stamp: read.stamp, password: nil)
    }

    /// Decodes `bytes` (damage is reported before any key is asked for), derives or reuses the
    /// key, refuses a key that opens none of its items, and keeps the result.
    private func load(_ bytes: [UInt8], stamp: FileStamp, password given: FileKeyringPassword?) throws(SecretError) -> FileKeyringCache.Entry {
        let path = location.path
        do throws(SecretError) {
            let file: FileKeyringFile
            do throws(FileKeyringFormatError) {
                file = try FileKeyringFile.decode(bytes)
            } catch {
                throw damaged(error.description)
            }
            let password: FileKeyringPassword
            if let given { password = given } else { password = try self.password() }
            let key = try key(for: file, password: password)
            if !file.items.isEmpty, !file.items.contains(where: { key.verifies($0.blob) }) {
                throw wrongPassword(items: file.items.count)
            }
            let entry = FileKeyringCache.Entry(stamp: stamp, file: file, key: key, password: password)
            cache.remember(path, entry)
            return entry
        } catch {
            cache.forget(path)
            throw error
        }
    }

    private func key(for file: FileKeyringFile, password: FileKeyringPassword) throws(SecretError) -> FileKeyringKey {
        if let known = cache.key(location.path, password: password, salt: file.salt, iterations: file.iterations) { return known }
        do throws(FileKeyringKey.Failure) {
            return try password.withBytes { bytes throws(FileKeyringKey.Failure) in
                try FileKeyringKey(password: bytes, salt: file.salt, iterations: file.iterations)
            }
        } catch {
            throw damaged("its key cannot be derived: " + Self.words(error))
        }
    }

    /// Read, change, replace under the keyring's lock. `change` returns `nil` when it changed
    /// nothing (nothing is written). `nil` also when there is no file and not `createIfMissing`.
    ///
    /// A libsecret writer in flight when the replace lands (``FileKeyringForeignWriter``) is
    /// waited for; when it replaced this write's version, the change is made again on what it
    /// wrote, so that a write this returns from is not lost to it. The first run's result is
    /// the one returned.
    private func mutate<Result>(
        password: FileKeyringPassword, createIfMissing: Bool,
        _ change: (inout FileKeyringFile, FileKeyringKey) throws(SecretError) -> Result?
    ) throws(SecretError) -> Result? {
        let folder = PrivateFolder.parent(of: location.path)
        var first: Result??
        for _ in 0..<FileKeyringForeignWriter.maximumRewrites {
            var written: FileStamp?
            let result = try mutateOnce(password: password, createIfMissing: createIfMissing, written: &written, change)
            if first == nil { first = .some(result) }
            guard let written else { break }
            FileKeyringForeignWriter.waitForWritersInFlight(folder: folder)
            // Still this write's version: done. Replaced (by the libsecret writer, or by another
            // writer that read it first): the change again, on the file as it is now — it is
            // the same change, so making it twice leaves what making it once does.
            guard let now = FileStamp.of(location.path), !now.isSameVersion(as: written) else { break }
        }
        return first ?? nil
    }

    private func mutateOnce<Result>(
        password: FileKeyringPassword, createIfMissing: Bool, written: inout FileStamp?,
        _ change: (inout FileKeyringFile, FileKeyringKey) throws(SecretError) -> Result?
    ) throws(SecretError) -> Result? {
        let path = location.path
        var stamp: FileStamp?
        defer { written = stamp }
        do {
            return try lockedFile.withLockStamped { current, replace in
                removeAbandonedTemporaries()
                var entry: FileKeyringCache.Entry
                if let current {
                    entry = try cache.entry(path, stamp: current.stamp, password: password)
                        ?? load(current.bytes, stamp: current.stamp, password: password)
                } else {
                    guard createIfMissing else { return nil }
                    let file = FileKeyringFile.new(now: Self.now())
                    entry = FileKeyringCache.Entry(stamp: Self.noStamp, file: file, key: try key(for: file, password: password), password: password)
                }
                guard let result = try change(&entry.file, entry.key) else { return nil }
                // nil: the file changed under us; withLockStamped runs this again on its version.
                guard let written = try replace(entry.file.encoded()) else { return nil }
                stamp = written
                entry.stamp = written
                cache.remember(path, entry)
                return result
            }
        } catch let error as SecretError {
            throw error
        } catch let error as FileError {
            cache.forget(path)
            throw secretError(error)
        } catch {
            cache.forget(path)
            throw .storageFailed(detail: "cannot write the file keyring \(path): \(error)")
        }
    }

    /// Removes the temporary files of writers killed before their rename (`.default.keyring.tmp-<pid>-…`):
    /// each is a whole copy of the keyring, secrets deleted since among them. Never libsecret's
    /// own (`.goutputstream-…`, `default.keyring~`).
    private func removeAbandonedTemporaries() {
        let path = location.path
        AtomicFile.removeAbandonedTemporaries(in: PrivateFolder.parent(of: path), prefixes: ["." + PrivateFolder.name(of: path) + ".tmp-"])
    }

    private var lockedFile: LockedFile {
        LockedFile(path: location.path, trust: Self.trust, sizeLimit: Self.maximumFileSize)
    }

    /// A stamp no file has (a keyring about to be made).
    private static let noStamp = FileStamp(stat())

    static func now() -> UInt64 {
        UInt64(max(0, time(nil)))
    }

    // MARK: - The key's password

    /// The master password, from ``keySource``.
    func password() throws(SecretError) -> FileKeyringPassword {
        if let givenPassword { return givenPassword }
        if let password = try FileKeyringKeySource.environmentPassword() { return password }
        guard sandbox != nil else {
            throw .noKeySource(detail: "the file keyring \(location.path) has no key here: outside a Flatpak sandbox its password comes only from \(FileKeyringKeySource.variable) (as for libsecret); set it, or use another backend outside a sandbox (the Secret Service, the vault)")
        }
        do {
            return try SecretPortal.masterSecret(timeout: portalTimeout)
        } catch {
            throw .keySourceUnavailable(detail: "the file keyring's key comes from the Secret portal in this sandbox, and it gave none: \(error)")
        }
    }

    // MARK: - Errors

    private func damaged(_ what: String) -> SecretError {
        .damaged(path: location.path, detail: "the file keyring \(location.path) is damaged: \(what); it is kept as it is and never rewritten: move it aside (mv '\(location.path)' '\(location.path).damaged') to start a new one, or put back the copy libsecret keeps ('\(location.path)~') if there is one")
    }

    private func wrongPassword(items: Int) -> SecretError {
        let source: String
        switch keySource {
        case .testPassword: source = "\(FileKeyringKeySource.variable) (set it to the password the keyring was made with)"
        case .portal: source = "the Secret portal (the secret it keeps for this app in the host's login keyring is not the one the keyring was made with: that item was deleted, or the keyring replaced)"
        case .given, nil: source = "the password given"
        }
        return .wrongPassphrase(detail: "none of the \(items) item\(items == 1 ? "" : "s") of the file keyring \(location.path) opens with the key from \(source); nothing was read or written; to start a new keyring, move it aside (mv '\(location.path)' '\(location.path).old')")
    }

    private func secretError(_ error: FileError) -> SecretError {
        switch error.problem {
        case .foreignOwner, .tooOpen, .symbolicLink, .wrongKind:
            return .untrusted(path: error.path, detail: "refusing the file keyring's \(error.subject.isEmpty ? "file" : error.subject) \(error.path): \(error.reason)")
        default:
            return .storageFailed(detail: error.description)
        }
    }
}
#endif
