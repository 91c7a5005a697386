#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import RizqCore

/// The secrets' files through RizqCore's file layer, in the vault's error: every folder and file
/// judged by a ``FileTrust`` on the read path as on the write path — the vault, its slots, its
/// marker and journals as ``FileTrust/secret(_:)`` (this user's or root's, nobody else may read
/// or write them), folders 0700; replaced atomically and durably (``FileReplacement``).
enum PrivateFiles {
    /// The rule of the vault's own files.
    static let vaultFile = FileTrust.secret("vault file")
    /// The rule of the vault's folders: this user's (or root's), and nobody else may write in
    /// them, sticky bit or not (``FileTrust/secret(_:)``).
    static let vaultFolder = FileTrust.secret("vault folder")

    /// The C library's words for the error number `code`.
    static func errnoText(_ code: Int32) -> String { Errno(rawValue: code).description }

    /// Makes `path` and any missing parent folders, each created 0700; the last one must be a
    /// real folder owned by this user (or root), and is made 0700 if others could read it.
    static func ensureFolder(_ path: String, trust: FileTrust = vaultFolder, tightening: Bool = true) throws(VaultError) {
        do {
            try PrivateFolder.ensure(path, trust: trust)
        } catch {
            throw error.vaultError
        }
        if tightening { try tighten(path) }
    }

    /// Judges the folder `path` as ``ensureFolder(_:)`` does, on the read path; `false` when it
    /// does not exist.
    @discardableResult
    static func checkFolder(_ path: String, trust: FileTrust = vaultFolder, tightening: Bool = true) throws(VaultError) -> Bool {
        do {
            guard try PrivateFolder.check(path, trust: trust) else { return false }
        } catch {
            throw error.vaultError
        }
        if tightening { try tighten(path) }
        return true
    }

    /// A folder of ours that others could read (made by an older release, or by hand) is made 0700.
    private static func tighten(_ path: String) throws(VaultError) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & 0o077 != 0, info.st_uid == geteuid() else { return }
        if chmod(path, 0o700) != 0 {
            throw .fileSystem(path: path, operation: "make the folder private (0700)", reason: errnoText(errno))
        }
    }

    /// Whether `path` exists (without following a final link).
    static func exists(_ path: String) -> Bool {
        FileStamp.of(path) != nil
    }

    /// The bytes of `path`, or `nil` when it does not exist, once `trust` accepts it.
    static func read(_ path: String, limit: Int, trust: FileTrust = vaultFile) throws(VaultError) -> Data? {
        try readStamped(path, limit: limit, trust: trust)?.data
    }

    /// The bytes of `path` and the stamp of the file they were read from (`fstat` of the same
    /// descriptor after the read, so the stamp describes these bytes even if the path is replaced
    /// meanwhile), or `nil` when it does not exist.
    static func readStamped(_ path: String, limit: Int, trust: FileTrust = vaultFile) throws(VaultError) -> (data: Data, stamp: FileStamp)? {
        do {
            guard let (bytes, stamp) = try PrivateFile.read(path, trust: trust, limit: limit) else { return nil }
            return (Data(bytes), stamp)
        } catch {
            throw error.vaultError
        }
    }

    /// The stamp of `path` itself (a final link is not followed), or `nil` when it does not exist.
    static func stamp(of path: String) throws(VaultError) -> FileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw .fileSystem(path: path, operation: "inspect", reason: errnoText(code))
        }
        return FileStamp(info)
    }

    /// Writes `data` to a new file `path` (it must not exist), 0600, durably.
    static func createExclusive(_ path: String, data: some ContiguousBytes) throws(VaultError) {
        do {
            try AtomicFile.create(data, at: path, subject: "vault file")
        } catch {
            throw error.vaultError
        }
    }

    /// Replaces `path` with `data` atomically and durably; returns the new file's stamp (after
    /// the rename, taken on its own descriptor).
    @discardableResult
    static func replace(_ path: String, with data: some ContiguousBytes) throws(VaultError) -> FileStamp {
        do {
            return try AtomicFile.write(data, to: path, subject: "vault file")
        } catch {
            throw error.vaultError
        }
    }

    /// Removes the temporary files killed writers left in the vault's folder `folder` (and its
    /// `slots/`): of `vault.age`, the slots, the chain's marker and a move's journal — each a
    /// whole copy, secrets deleted since among them (``AtomicFile/removeAbandonedTemporaries(in:prefixes:)``).
    static func removeAbandonedTemporaries(in folder: String) {
        let names = ["vault.age", "recipient.txt", "backend.json", "migration.journal", "plaintext.json"]
        AtomicFile.removeAbandonedTemporaries(in: folder, prefixes: names.map { "." + $0 + ".tmp-" } + names.map { $0 + ".tmp-" })
        AtomicFile.removeAbandonedTemporaries(in: folder + "/slots", prefixes: [".passphrase.age.tmp-", ".systemd.cred.tmp-"])
    }

    /// Removes `path`, then makes the removal durable; `false` when it was not there.
    @discardableResult
    static func remove(_ path: String) throws(VaultError) -> Bool {
        do {
            return try AtomicFile.remove(path, subject: "vault file")
        } catch {
            throw error.vaultError
        }
    }

    /// Renames `from` to `to` (which must not exist) durably.
    static func move(_ from: String, to: String) throws(VaultError) {
        do {
            try AtomicFile.move(from, to: to, replacing: false, subject: "vault file")
        } catch {
            throw error.vaultError
        }
    }

    /// The device of the file system holding `path` (or of its nearest existing parent).
    static func device(of path: String) -> UInt64? {
        var current = path
        while !current.isEmpty {
            var info = stat()
            if stat(current, &info) == 0 { return UInt64(info.st_dev) }
            if current == "/" { return nil }
            current = PrivateFolder.parent(of: current)
        }
        return nil
    }
}

extension FileError {
    /// The vault's error for this one: a file or folder that is not to be trusted (another
    /// user's, a link, open to others, a FIFO) is ``VaultError/untrusted(path:reason:)``; any
    /// other failure ``VaultError/fileSystem(path:operation:reason:)``.
    var vaultError: VaultError {
        switch problem {
        case .foreignOwner, .tooOpen, .symbolicLink, .wrongKind:
            return .untrusted(path: path, reason: reason)
        case .lockTimedOut:
            return .fileSystem(path: path, operation: "lock", reason: reason)
        default:
            return .fileSystem(path: path, operation: operation.rawValue, reason: reason)
        }
    }
}
#endif
