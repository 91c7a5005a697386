import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one atomic replace of every file this package keeps: the new bytes go to a temporary file
/// beside the target (`O_EXCL`, so never through a link someone planted; the mode exactly as
/// asked, whatever the umask), are flushed (`fsync`), and are renamed over the target; then the
/// folder is flushed, so the rename survives a crash. A reader, or a crash at any moment, sees
/// the old file or the new one, whole.
///
/// In two steps, so that a caller can do its own work between them (a suite checks its lock and
/// records the change log's segment of the version it is about to install):
///
/// ```swift
/// var replacement = try FileReplacement.prepare(bytes, for: path)
/// switch try replacement.install(over: .version(readStamp)) {
/// case .replaced(let stamp): …      // the file is the new bytes, at this version
/// case .changed: …                  // someone else replaced it since it was read: nothing written
/// }
/// ```
///
/// A replacement that is not installed removes its temporary file when it ends.
package struct FileReplacement: ~Copyable {
    /// What the target must be for the install to go ahead.
    package enum Expectation: Sendable {
        /// Whatever is there (a plain rename).
        case anything
        /// Nothing: the target must not exist (`RENAME_NOREPLACE`).
        case nothing
        /// This version of it (``FileStamp/isSameVersion(as:)``), checked atomically where the
        /// file system can swap (`RENAME_EXCHANGE`: what was displaced is looked at, and put
        /// back if it was not this version), else just before the rename.
        case version(FileStamp)
    }

    /// What ``install(over:syncFolder:)`` did.
    package enum Outcome: Sendable {
        /// The target is the new bytes, at this version (stamped after the rename).
        case replaced(FileStamp)
        /// Nothing was written: the target was not what was expected.
        case changed
    }

    /// The temporary file's path.
    package let temporary: String
    /// The file it replaces.
    package let target: String
    /// The temporary file's version before it is renamed into place (its change time moves then).
    package let written: FileStamp
    private let descriptor: Int32
    private var installed = false
    /// Whether the temporary file has been flushed (`fsync`); ``install(over:syncFolder:)``
    /// flushes it first when not.
    private var flushed: Bool
    private let subject: String

    /// When ``prepare(_:for:mode:owner:temporaryPrefix:subject:flush:)`` flushes the temporary file.
    package enum Flush: Sendable {
        /// At once: `prepare` returns once the bytes are on the device.
        case now
        /// At the install: `prepare` only starts the write-back (`sync_file_range`), so that
        /// another file's `fsync` meanwhile may carry these bytes in the same journal commit,
        /// and the `fsync` at the install then finds little or nothing left to do.
        case atInstall
    }

    private init(temporary: String, target: String, written: FileStamp, descriptor: Int32, flushed: Bool, subject: String) {
        self.temporary = temporary
        self.target = target
        self.written = written
        self.descriptor = descriptor
        self.flushed = flushed
        self.subject = subject
    }

    deinit {
        if !installed { SystemCalls.unlink(temporary) }
        close(descriptor)
    }

    /// Writes `bytes` to a new temporary file beside `target` (`.<name>.tmp-<pid>-<random>`, or
    /// `temporaryPrefix` + `<pid>-<random>`), `mode` exactly, and flushes it (`flush`: now, or
    /// at the install — never later than the rename). `owner` (a root process replacing a user's
    /// file) is given to it first; a process that is not root and would have to give it to
    /// another user is refused: it would take the file from its owner.
    package static func prepare(
        _ bytes: UnsafeRawBufferPointer, for target: String, mode: mode_t = 0o600, owner: FileOwner? = nil, temporaryPrefix: String? = nil,
        subject: String = "file", flush: Flush = .now
    ) throws(FileError) -> FileReplacement {
        let folder = PrivateFolder.parent(of: target)
        let prefix = temporaryPrefix ?? (folder + "/." + PrivateFolder.name(of: target) + ".tmp-")
        let temporary = prefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = SystemCalls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw FileError(path: target, operation: .write, problem: .system(.current), subject: subject) }
        // Held while the file is ours: a cleaner (``AtomicFile/removeAbandonedTemporaries(in:prefixes:)``)
        // leaves a temporary file whose writer still holds it.
        _ = SystemCalls.flock(descriptor, LOCK_EX | LOCK_NB)
        do throws(FileError) {
            if let owner, owner.user != geteuid() || owner.group != getegid() {
                if SystemCalls.fchown(descriptor, owner.user, owner.group) != 0, owner.user != geteuid() {
                    throw FileError(path: target, operation: .write, problem: .foreignOwner(owner: owner.user, user: geteuid()), subject: subject)
                }
                // Only the group differs, and this user is not in it: the file keeps this user's group.
            }
            guard SystemCalls.fchmod(descriptor, mode) == 0 else { throw FileError.current(target, .write, subject: subject) }
            do {
                try DescriptorIO.writeAll(bytes, to: descriptor)
            } catch {
                throw FileError(path: target, operation: .write, problem: .system(error), subject: subject)
            }
            switch flush {
            case .now:
                guard SystemCalls.fsync(descriptor) == 0 else { throw FileError.current(target, .write, subject: subject) }
            case .atInstall:
                LinuxFileCalls.startWriteBack(descriptor)
            }
            guard let written = FileStamp.of(descriptor: descriptor) else { throw FileError.current(target, .write, subject: subject) }
            return FileReplacement(temporary: temporary, target: target, written: written, descriptor: descriptor, flushed: flush == .now, subject: subject)
        } catch {
            SystemCalls.unlink(temporary)
            close(descriptor)
            throw error
        }
    }

    /// ``prepare(_:for:mode:owner:temporaryPrefix:subject:flush:)`` of an array or `Data`.
    package static func prepare(
        _ bytes: some ContiguousBytes, for target: String, mode: mode_t = 0o600, owner: FileOwner? = nil, temporaryPrefix: String? = nil,
        subject: String = "file", flush: Flush = .now
    ) throws(FileError) -> FileReplacement {
        var prepared: FileReplacement?
        var failure: FileError?
        bytes.withUnsafeBytes { buffer in
            do throws(FileError) {
                prepared = try prepare(buffer, for: target, mode: mode, owner: owner, temporaryPrefix: temporaryPrefix, subject: subject, flush: flush)
            } catch {
                failure = error
            }
        }
        switch consume prepared {
        case .some(let replacement): return replacement
        case .none: throw failure ?? FileError(path: target, operation: .write, problem: .keepsChanging, subject: subject)
        }
    }

    /// Renames the temporary file over the target if the target is what `expected` says, then
    /// (with `syncFolder`) flushes the folder. After ``Outcome/changed`` the temporary file is
    /// removed when the value ends; nothing was written.
    package mutating func install(over expected: Expectation, syncFolder: Bool = true) throws(FileError) -> Outcome {
        guard !installed else { return .changed }
        if !flushed {
            guard SystemCalls.fsync(descriptor) == 0 else { throw FileError.current(target, .write, subject: subject) }
            flushed = true
        }
        let outcome: Outcome
        switch expected {
        case .anything:
            guard SystemCalls.rename(temporary, target) == 0 else { throw FileError.current(target, .write, subject: subject) }
            outcome = try replaced()
        case .nothing:
            let code = LinuxFileCalls.renameNoReplace(temporary, target)
            if code == 0 {
                outcome = try replaced()
            } else if code == EEXIST {
                return .changed
            } else if LinuxFileCalls.isUnsupported(code) {
                outcome = try renameChecked(nil)
            } else {
                throw FileError(path: target, operation: .write, problem: .system(Errno(rawValue: code)), subject: subject)
            }
        case .version(let version):
            outcome = try exchange(expecting: version)
        }
        if syncFolder, case .replaced = outcome { try PrivateFolder.sync(PrivateFolder.parent(of: target)) }
        return outcome
    }

    private mutating func replaced() throws(FileError) -> Outcome {
        installed = true
        guard let stamp = FileStamp.of(descriptor: descriptor) else { throw FileError.current(target, .write, subject: subject) }
        return .replaced(stamp)
    }

    private mutating func exchange(expecting version: FileStamp) throws(FileError) -> Outcome {
        let code = LinuxFileCalls.exchange(temporary, target)
        if code == ENOENT { return .changed }
        if LinuxFileCalls.isUnsupported(code) { return try renameChecked(version) }
        guard code == 0 else { throw FileError(path: target, operation: .write, problem: .system(Errno(rawValue: code)), subject: subject) }
        // The temporary name now holds what was displaced.
        if let displaced = FileStamp.of(temporary), displaced.isSameVersion(as: version) {
            SystemCalls.unlink(temporary)
            return try replaced()
        }
        // Another program replaced the file since it was read: its version goes back.
        let back = LinuxFileCalls.exchange(temporary, target)
        if back == 0, let ours = FileStamp.of(temporary), ours.isSameVersion(as: written) { return .changed }
        installed = true  // the temporary name now holds the other program's version: keep it
        throw FileError(
            path: target, operation: .write,
            problem: .displaced(keptAt: temporary), subject: subject)
    }

    /// The fallback where `renameat2` is missing: check, then rename (a program that does not
    /// take the lock can still slip in between).
    private mutating func renameChecked(_ version: FileStamp?) throws(FileError) -> Outcome {
        let now = FileStamp.of(target)
        switch (now, version) {
        case (nil, nil): break
        case (let now?, let version?) where now.isSameVersion(as: version): break
        default: return .changed
        }
        guard SystemCalls.rename(temporary, target) == 0 else { throw FileError.current(target, .write, subject: subject) }
        return try replaced()
    }
}

/// Whole-file writes and removals that need no two-step install.
package enum AtomicFile {
    /// Removes the temporary files that writers killed before their rename left in `folder`:
    /// names that start with one of `prefixes` followed by the writer's process id
    /// (``FileReplacement``'s `<prefix><pid>-<random>`, a journal's `<name>.tmp-<pid>`), whose
    /// process is gone and which no process holds locked (a writer in another pid namespace, a
    /// sandbox's, still holds its own). Each is a whole copy of what was being written — for a
    /// keyring or a vault, secrets deleted since among them — so the next open removes it.
    /// Returns how many were removed.
    @discardableResult
    package static func removeAbandonedTemporaries(in folder: String, prefixes: [String]) -> Int {
        var removed = 0
        for name in PrivateFolder.names(in: folder) {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let pidText = rest.split(separator: "-", maxSplits: 1).first, let pid = pid_t(pidText), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = folder + "/" + name
            let descriptor = SystemCalls.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() || geteuid() == 0,
                SystemCalls.flock(descriptor, LOCK_EX | LOCK_NB) == 0
            else { continue }
            if SystemCalls.unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Replaces (or creates) `path` with `bytes`, atomically and durably; returns the new version.
    @discardableResult
    package static func write(_ bytes: some ContiguousBytes, to path: String, mode: mode_t = 0o600, subject: String = "file") throws(FileError) -> FileStamp {
        var replacement = try FileReplacement.prepare(bytes, for: path, mode: mode, subject: subject)
        guard case .replaced(let stamp) = try replacement.install(over: .anything) else {
            throw FileError(path: path, operation: .write, problem: .keepsChanging, subject: subject)
        }
        return stamp
    }

    /// Creates `path` with `bytes` (it must not exist: ``FileError`` with `EEXIST` otherwise),
    /// atomically and durably.
    @discardableResult
    package static func create(_ bytes: some ContiguousBytes, at path: String, mode: mode_t = 0o600, subject: String = "file") throws(FileError) -> FileStamp {
        var replacement = try FileReplacement.prepare(bytes, for: path, mode: mode, subject: subject)
        guard case .replaced(let stamp) = try replacement.install(over: .nothing) else {
            throw FileError(path: path, operation: .create, problem: .system(.fileExists), subject: subject)
        }
        return stamp
    }

    /// Removes `path`, durably; `false` when nothing was there.
    @discardableResult
    package static func remove(_ path: String, subject: String = "file") throws(FileError) -> Bool {
        guard SystemCalls.unlink(path) == 0 else {
            let code = Errno.current
            if code == .noSuchFile { return false }
            throw FileError(path: path, operation: .remove, problem: .system(code), subject: subject)
        }
        try PrivateFolder.sync(PrivateFolder.parent(of: path))
        return true
    }

    /// Renames `source` to `target`, durably; with `replacing` false, only if `target` does not
    /// exist (``FileError`` with `EEXIST` otherwise).
    package static func move(_ source: String, to target: String, replacing: Bool, subject: String = "file") throws(FileError) {
        if replacing {
            guard SystemCalls.rename(source, target) == 0 else { throw FileError.current(source, .move, subject: subject) }
        } else {
            var code = LinuxFileCalls.renameNoReplace(source, target)
            if LinuxFileCalls.isUnsupported(code) {
                code = access(target, F_OK) == 0 ? EEXIST : (SystemCalls.rename(source, target) == 0 ? 0 : errno)
            }
            guard code == 0 else { throw FileError(path: code == EEXIST ? target : source, operation: .move, problem: .system(Errno(rawValue: code)), subject: subject) }
        }
        try PrivateFolder.sync(PrivateFolder.parent(of: target))
        if PrivateFolder.parent(of: source) != PrivateFolder.parent(of: target) { try PrivateFolder.sync(PrivateFolder.parent(of: source)) }
    }
}
