import RizqCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SuiteFile {
    /// What ``replace(bytes:changes:over:_:)`` did.
    enum Replacement {
        /// The bytes are the file now, at this stamp.
        case replaced(FileStamp)
        /// Nothing was written: the lock file was removed or replaced while the lock was held,
        /// so another writer may be inside its write. Take the lock again (``retake(_:)``), then
        /// start the write over from the file as it is then.
        case lockLost
        /// Nothing was written: the file at the path is not the version the bytes were made
        /// over (a program that does not take the lock replaced or edited it). Start the write
        /// over from the file as it is now.
        case fileChanged
    }

    /// Replaces the file, which is now the version `expected` (`nil`: there is none), with
    /// exactly `bytes`, crash-safely: a temporary file in the same folder, fsync, an atomic swap
    /// with the suite file, fsync of the folder. A reader sees the old file or the new one, whole.
    ///
    /// The bytes were made from `expected`, so they go in only over that version: the lock is
    /// checked to still be the file at the lock path (a writer that took a new lock file after
    /// ours was removed would not wait for us), and the swap (`RENAME_EXCHANGE`) shows which
    /// file it displaced — if that is not `expected`, it is swapped back at once and nothing
    /// is written. Where the file system cannot swap, the file is checked just before a plain
    /// rename instead.
    ///
    /// `changes` (the times of the changes the bytes carry) go into the ``ChangeLog`` as the
    /// new version's segment, once the new file's stamp is known and before the swap; a write
    /// without them (a revert, a migration) leaves its version unrecorded. The new file takes
    /// the owner of the file it replaces (``matchOwner(_:of:)``).
    func replace(bytes: [UInt8], changes: ChangeLog.Changes? = nil, over expected: FileStamp?, _ lock: borrowing SuiteFileLock) throws(SuiteStoreError) -> Replacement {
        guard bytes.count <= RegularFile.sizeLimit else {
            throw .writeFailed(path: location.path, reason: "the suite would be \(bytes.count >> 20) MiB, over the \(RegularFile.sizeLimit >> 20) MiB a suite file may hold; remove or shrink large values (keep large data in files of your own)")
        }
        try ensureDirectory()
        let temporary = newTemporaryPath()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: location.path, reason: FileProblem.writeReason(errno)) }
        var keep = false
        defer {
            if !keep { unlink(temporary) }
        }
        do throws(SuiteStoreError) {
            try matchOwner(ownerForReplacement(of: expected), of: descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        let written: FileStamp
        do throws(Errno) {
            defer { close(descriptor) }
            _ = fchmod(descriptor, 0o600)
            try DescriptorIO.writeAll(bytes, to: descriptor)
            guard fsync(descriptor) == 0 else { throw .current }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .current }
            written = FileStamp(info)
        } catch {
            throw .writeFailed(path: location.path, reason: FileProblem.writeReason(error.rawValue))
        }
        guard lock.isAtLockPath else { return .lockLost }
        if let changes {
            if let problem = appendToChangeLog(changes.segmentBytes(version: written, parent: expected), over: expected, lock) {
                OnceWarnings.warn(
                    "change-log " + location.path,
                    "cannot record when this write's keys were changed in \(changeLogPath) (\(problem)): until the next write succeeds in recording them, a change to one of these keys by another process is judged by the file's modification time, which an earlier change written later can win",
                    suite: location.suiteName)
            }
        }
        let outcome = try install(temporary, written, over: expected)
        if case .replaced = outcome {
            keep = true
            syncDirectory()
        }
        return outcome
    }

    /// Puts the written temporary file (`written`) at the suite's path if the file there is
    /// `expected`. The temporary file is gone afterwards when it was installed.
    private func install(_ temporary: String, _ written: FileStamp, over expected: FileStamp?) throws(SuiteStoreError) -> Replacement {
        let path = location.path
        guard let expected else {
            let code = LinuxFileCalls.renameNoReplace(temporary, path)
            if code == 0 { return .replaced(written) }
            if code == EEXIST { return .fileChanged }
            guard LinuxFileCalls.isUnsupported(code) else { throw .writeFailed(path: path, reason: FileProblem.writeReason(code)) }
            return try renameChecked(temporary, written, over: nil)
        }
        let code = LinuxFileCalls.exchange(temporary, path)
        if code == ENOENT { return .fileChanged }
        if LinuxFileCalls.isUnsupported(code) { return try renameChecked(temporary, written, over: expected) }
        guard code == 0 else { throw .writeFailed(path: path, reason: FileProblem.writeReason(code)) }
        // The temporary name now holds what was displaced.
        if FileStamp.of(temporary) == expected {
            unlink(temporary)
            return .replaced(written)
        }
        // Another program replaced the file since it was read: its version goes back.
        let back = LinuxFileCalls.exchange(temporary, path)
        if back == 0, FileStamp.of(temporary) == written {
            return .fileChanged
        }
        throw .writeFailed(
            path: path,
            reason: "another program replaced the file during this write, and its version could not be put back; it is \(temporary): look at it and move it back by hand if it is the one to keep")
    }

    /// The fallback where `renameat2` is missing: check, then rename (a program that does not
    /// take the lock can still slip in between).
    private func renameChecked(_ temporary: String, _ written: FileStamp, over expected: FileStamp?) throws(SuiteStoreError) -> Replacement {
        guard try stamp() == expected else { return .fileChanged }
        guard rename(temporary, location.path) == 0 else { throw .writeFailed(path: location.path, reason: FileProblem.writeReason(errno)) }
        return .replaced(written)
    }
}
