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
    /// the owner of the file it replaces (``ownerForReplacement(of:)``). All of it is RizqCore's
    /// ``FileReplacement``: this adds the lock's check and the change log between its two steps.
    func replace(bytes: [UInt8], changes: ChangeLog.Changes? = nil, over expected: FileStamp?, _ lock: borrowing SuiteFileLock) throws(SuiteStoreError) -> Replacement {
        guard bytes.count <= RegularFile.sizeLimit else {
            throw .writeFailed(path: location.path, reason: "the suite would be \(bytes.count >> 20) MiB, over the \(RegularFile.sizeLimit >> 20) MiB a suite file may hold; remove or shrink large values (keep large data in files of your own)")
        }
        try ensureDirectory()
        var replacement: FileReplacement
        do {
            replacement = try FileReplacement.prepare(
                bytes, for: location.path, owner: ownerForReplacement(of: expected), temporaryPrefix: temporaryPrefixPath, subject: "suite file")
        } catch {
            throw .writeFailed(path: location.path, reason: error.reason)
        }
        guard lock.isAtLockPath else { return .lockLost }
        if let changes {
            if let problem = appendToChangeLog(changes.segmentBytes(version: replacement.written, parent: expected), over: expected, lock) {
                OnceWarnings.warn(
                    "change-log " + location.path,
                    "cannot record when this write's keys were changed in \(changeLogPath) (\(problem)): until the next write succeeds in recording them, a change to one of these keys by another process is judged by the file's modification time, which an earlier change written later can win",
                    suite: location.suiteName)
            }
        }
        do {
            switch try replacement.install(over: expected.map { .version($0) } ?? .nothing) {
            case .replaced(let stamp): return .replaced(stamp)
            case .changed: return .fileChanged
            }
        } catch {
            throw .writeFailed(path: location.path, reason: error.reason)
        }
    }
}
