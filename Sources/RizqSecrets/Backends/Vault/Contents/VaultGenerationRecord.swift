#if Secrets
import Crypto
import Foundation
import RizqCore

/// This machine's record of one vault, kept outside the vault's folder: the recipient it was
/// last seen under, the highest generation seen, and the recipients ``VaultSecretStore/rekey()``
/// retired. It is how a read notices that an older copy of `vault.age` was put back (a synced or
/// restored folder, someone with write access to it), and that a sealed vault was replaced by one
/// in the last release's unsealed format.
///
/// The file is `<stateFolder>/<16 bytes of SHA-256 of the vault folder's path, hex>.json`
/// (``VaultConfiguration/stateFolder``: `$XDG_STATE_HOME/rizq-prefs/vaults`), judged as a secret
/// (this user's or root's, nobody else may read or write it), changed under its own lock and
/// replaced atomically. It only ever moves forward: a write records after `vault.age` is in
/// place, so a crash leaves the record behind the vault, never ahead of it. A write's record
/// reaches the device with the vault's own flush (``advance(recipient:retiring:after:failed:alongside:)``).
///
/// What it cannot do: a machine that never read the vault (a new one, or one whose state
/// folder was lost) has no record, and accepts whatever sealed generation it finds first. A
/// vault in the old, unsealed format is refused by every read, record or not
/// (``VaultSecretStore/upgradeUnsealedVault()`` is the one step that takes it).
struct VaultGenerationRecord {
    /// The record's path.
    let path: String
    /// The vault folder it is about.
    let folder: String

    /// What the file holds.
    struct Entry: Codable, Equatable {
        /// The vault folder (for a person reading the file).
        var folder: String
        /// The recipient the vault was last seen under.
        var recipient: String
        /// The highest generation seen under it.
        var generation: UInt64
        /// Recipients a re-key replaced: a vault under one of them is an old copy.
        var retired: [String]
    }

    /// The most retired recipients kept (the oldest go first).
    static let retiredLimit = 16
    static let trust = FileTrust.secret("vault generation record")

    /// The record of the vault in `folder`, under `stateFolder`.
    init(folder: String, stateFolder: String) {
        self.folder = folder
        let digest = SHA256.hash(data: Data(folder.utf8))
        path = stateFolder + "/" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + ".json"
    }

    private var file: LockedFile { LockedFile(path: path, trust: Self.trust, sizeLimit: 64 << 10) }

    /// Removes what writers of the record killed before their rename left beside it.
    func removeAbandonedTemporaries() {
        AtomicFile.removeAbandonedTemporaries(in: PrivateFolder.parent(of: path), prefixes: ["." + PrivateFolder.name(of: path) + ".tmp-"])
    }

    /// The entry, `nil` when this machine has none.
    /// - Throws: ``VaultError/untrusted(path:reason:)`` for a record another user could have
    ///   written, or one that is not a record.
    func load() throws(VaultError) -> Entry? {
        let bytes: [UInt8]?
        do {
            bytes = try file.read()?.bytes
        } catch {
            throw error.vaultError
        }
        guard let bytes else { return nil }
        return try decode(bytes)
    }

    private func decode(_ bytes: [UInt8]) throws(VaultError) -> Entry {
        guard let entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes)) else {
            throw .untrusted(path: path, reason: "it is not this machine's record of the vault \(folder) (not its JSON); remove it with `rizq-prefs secret accept-restored` (acceptRestoredVault()) once the vault is the one you want")
        }
        return entry
    }

    /// Judges what a read found: `contents` decrypted from `vault` under `recipient`.
    /// - Throws: ``VaultError/rolledBack(path:reason:)`` for an older generation than recorded
    ///   or a retired recipient; ``VaultError/unauthenticated(path:reason:)`` for the old,
    ///   unsealed format where this machine has seen the vault sealed.
    func judge(_ contents: VaultContents, recipient: String, vault: String) throws(VaultError) {
        guard let entry = try load() else { return }
        let accept = "if you put this copy back yourself and want it, accept it with `rizq-prefs secret accept-restored` (acceptRestoredVault())"
        if entry.retired.contains(recipient) {
            throw .rolledBack(path: vault, reason: "it is under a key this machine re-keyed the vault away from (recorded in \(path)): it is an old copy; restore the current vault, or \(accept)")
        }
        guard entry.recipient == recipient else { return }
        guard contents.isAuthenticated else {
            throw .unauthenticated(path: vault, reason: "it is in the last release's unsealed format, but this machine has seen this vault sealed (generation \(entry.generation), recorded in \(path)): someone who had only the public key (recipient.txt) replaced it, or a copy from before the upgrade was put back; restore the sealed vault, or \(accept) and then `rizq-prefs secret upgrade` (upgradeUnsealedVault())")
        }
        if contents.generation < entry.generation {
            throw .rolledBack(path: vault, reason: "it is generation \(contents.generation), older than generation \(entry.generation) that this machine has seen (recorded in \(path)): an older copy was put back, and secrets stored since would be lost; restore the newer vault, or \(accept)")
        }
    }

    /// Records that the vault is at `generation` under `recipient` (`retiring`: a recipient a
    /// re-key replaced). Never moves a recorded generation of the same recipient back.
    func advance(recipient: String, generation: UInt64, retiring: String? = nil) throws(VaultError) {
        do {
            try file.withLock { current, replace in
                let before = try current.map { bytes throws(VaultError) in try decode(bytes) }
                let entry = Self.advanced(
                    before ?? Entry(folder: folder, recipient: recipient, generation: 0, retired: []), folder: folder, recipient: recipient,
                    generation: generation, retiring: retiring)
                guard entry != before else { return }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                _ = try replace(Array(try encoder.encode(entry)) + [0x0A])
            }
        } catch let error as VaultError {
            throw error
        } catch let error as FileError {
            throw error.vaultError
        } catch {
            throw .fileSystem(path: path, operation: "record the vault's generation in", reason: "\(error)")
        }
    }

    /// Runs `write` — the vault's replace at the generation it is given — and records that
    /// generation for `recipient` (`retiring`: a recipient a re-key replaced) alongside it, in
    /// this order: the record's lock taken and the record read; the generation to write worked
    /// out (the one after the higher of `last`, the generation of the contents being replaced,
    /// and the one recorded); the new record written to its temporary file, its write-back
    /// started; `write`; then, once `write` returned (the vault is in place), the record's
    /// temporary file flushed and renamed over the version read.
    ///
    /// The new record reaches the device in the same journal commit as the vault's own flush
    /// (issue 39: a set paid two durable writes before, each with its own flushes), and the
    /// record still only moves forward and never gets ahead of the vault: its new name is made
    /// only after `write`, from bytes already flushed. Its folder is not flushed: a crash may
    /// leave the record behind the vault, as it always could, never ahead.
    ///
    /// A record that cannot be read or written leaves the vault working: `failed` is told (the
    /// caller logs it) and `write` runs at the generation after `last`; the next write tries
    /// again. Nothing is recorded when `write` throws.
    func advance<T>(
        recipient: String, retiring: String?, after last: UInt64, failed: (VaultError) -> Void, alongside write: (UInt64) throws(VaultError) -> T
    ) throws(VaultError) -> T {
        let lock: FileLock
        do {
            try PrivateFolder.ensure(file.directory, trust: .settings("folder"), ownership: .inheritedWhenRoot)
            lock = try FileLock.acquire(
                file.lockPath, timeout: file.lockTimeout, owner: FileOwner.of(path) ?? FileOwner.of(file.directory), subject: Self.trust.subject + " " + path)
        } catch {
            failed(error.vaultError)
            return try write(Self.generation(after: last))
        }
        return try advance(holding: lock, recipient: recipient, retiring: retiring, after: last, failed: failed, alongside: write)
    }

    /// ``advance(recipient:retiring:after:failed:alongside:)`` once the record's lock is held.
    private func advance<T>(
        holding lock: borrowing FileLock, recipient: String, retiring: String?, after last: UInt64, failed: (VaultError) -> Void,
        alongside write: (UInt64) throws(VaultError) -> T
    ) throws(VaultError) -> T {
        let current: (bytes: [UInt8], stamp: FileStamp)?
        let recorded: Entry?
        do {
            current = try PrivateFile.read(path, trust: Self.trust, limit: file.sizeLimit)
            recorded = try current.map { (read) throws(VaultError) -> Entry in try decode(read.bytes) }
        } catch let error as VaultError {
            failed(error)
            return try write(Self.generation(after: last))
        } catch let error as FileError {
            failed(error.vaultError)
            return try write(Self.generation(after: last))
        } catch {
            failed(.fileSystem(path: path, operation: "read", reason: "\(error)"))
            return try write(Self.generation(after: last))
        }
        let generation = Self.generation(after: max(last, recorded?.generation ?? 0))
        let entry = Self.advanced(recorded ?? Entry(folder: folder, recipient: recipient, generation: 0, retired: []), folder: folder, recipient: recipient, generation: generation, retiring: retiring)
        guard entry != recorded else { return try write(generation) }
        var replacement: FileReplacement
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let bytes = Array(try encoder.encode(entry)) + [0x0A]
            replacement = try FileReplacement.prepare(bytes, for: path, owner: current?.stamp.owner, subject: Self.trust.subject, flush: .atInstall)
        } catch let error as FileError {
            failed(error.vaultError)
            return try write(generation)
        } catch {
            failed(.fileSystem(path: path, operation: "record the vault's generation in", reason: "\(error)"))
            return try write(generation)
        }
        let value = try write(generation)
        do throws(FileError) {
            guard lock.isAtLockPath else {
                failed(.fileSystem(path: path, operation: "record the vault's generation in", reason: "its lock file was removed meanwhile; the next write records it"))
                return value
            }
            if case .changed = try replacement.install(over: current.map { .version($0.stamp) } ?? .nothing, syncFolder: false) {
                failed(.fileSystem(path: path, operation: "record the vault's generation in", reason: "another program replaced the record meanwhile; the next write records it"))
            }
        } catch {
            failed(error.vaultError)
        }
        return value
    }

    /// The generation a write after `generation` writes (the last one stays the last).
    static func generation(after generation: UInt64) -> UInt64 {
        generation == .max ? .max : generation + 1
    }

    /// `entry` once the vault is at `generation` under `recipient` (`retiring`: a recipient a
    /// re-key replaced). Never moves a recorded generation of the same recipient back.
    private static func advanced(_ entry: Entry, folder: String, recipient: String, generation: UInt64, retiring: String?) -> Entry {
        var entry = entry
        if let retiring, retiring != recipient, !entry.retired.contains(retiring) {
            entry.retired.append(retiring)
            entry.retired = Array(entry.retired.suffix(retiredLimit))
        }
        entry.retired.removeAll { $0 == recipient }
        if entry.recipient == recipient {
            entry.generation = max(entry.generation, generation)
        } else {
            entry.recipient = recipient
            entry.generation = generation
        }
        entry.folder = folder
        return entry
    }

    /// Forgets the record: the next read accepts the vault as it is and records it.
    func remove() throws(VaultError) {
        do {
            try file.remove()
        } catch {
            throw error.vaultError
        }
    }
}
#endif
