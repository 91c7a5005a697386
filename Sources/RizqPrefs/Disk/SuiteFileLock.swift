import Logging
import RizqCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Proof that a suite's file lock is held: RizqCore's ``FileLock`` on the hidden
/// `.<suite>.lock` beside the file, so that writers in other processes take turns.
///
/// Only ``SuiteFile/withLock(shared:_:)`` makes one, for the length of its body; what must run
/// under the lock takes it as an argument, so that holding the lock is a matter of types, not
/// of a flag (a second `flock` from this process would wait for itself). Non-copyable: it never
/// leaves the body.
struct SuiteFileLock: ~Copyable {
    fileprivate var lock: FileLock

    /// Where the lock file is.
    var path: String { lock.path }

    /// Whether the lock is still on the file at the lock path (it was not removed or replaced
    /// since it was taken).
    var isAtLockPath: Bool { lock.isAtLockPath }
}

extension SuiteFile {
    private var lockPath: String { location.directory + "/." + location.suiteName + ".lock" }

    /// Holds the suite's advisory lock while `body` runs.
    ///
    /// The lock is RizqCore's ``FileLock``: taken on a descriptor checked, after `flock`
    /// returns, to still be the file at the path (a `*.lock` clean-up may have removed it), never
    /// opened through a link, and given the suite's owner when a root process creates it.
    ///
    /// The wait for another process to let go is bounded (``LockTimeout``): after it, the body
    /// does not run and ``SuiteStoreError/lockTimedOut(path:lockFile:waited:holders:)`` names
    /// who holds the lock. `shared` takes it shared (`LOCK_SH`), as a reader that must see the
    /// suite file and its change record as one version does: writers exclude it, other readers do not.
    func withLock<T>(shared: Bool = false, _ body: (inout SuiteFileLock) throws(SuiteStoreError) -> T) throws(SuiteStoreError) -> T {
        try ensureDirectory()
        var lock = SuiteFileLock(lock: try takeLock(shared: shared))
        return try body(&lock)
    }

    /// Takes the lock again, on the file at the lock path now, after it was found gone
    /// (``SuiteFileLock/isAtLockPath``): waits for whoever holds that one.
    func retake(_ lock: inout SuiteFileLock) throws(SuiteStoreError) {
        do {
            try lock.lock.retake(timeout: LockTimeout.current)
        } catch {
            throw lockError(error)
        }
    }

    private func takeLock(shared: Bool) throws(SuiteStoreError) -> FileLock {
        do {
            return try FileLock.acquire(lockPath, shared: shared, timeout: LockTimeout.current, owner: ownerOfSuiteFiles, subject: "suite file")
        } catch {
            throw lockError(error)
        }
    }

    private func lockError(_ error: FileError) -> SuiteStoreError {
        switch error.problem {
        case .lockTimedOut(let waited, let holders):
            Logger.rizqPrefs.warning(
                "gave up waiting for the lock of suite file \(location.path) after \(waited): held by \(holders)",
                metadata: ["suite": "\(location.suiteName)"])
            return .lockTimedOut(path: location.path, lockFile: lockPath, waited: waited, holders: holders)
        case .symbolicLink:
            return .writeFailed(
                path: location.path,
                reason: "its lock file \(lockPath) is a symbolic link, and suite files are never written through links; remove the link (rm '\(lockPath)') and try again")
        case .wrongKind(let found, _):
            return .writeFailed(path: location.path, reason: "its lock file \(lockPath) is not a regular file (\(found)); remove it (rm '\(lockPath)') and try again")
        case .keepsChanging:
            return .writeFailed(path: location.path, reason: "its lock file \(lockPath) keeps being removed or replaced; stop the program that does it")
        default:
            return .writeFailed(path: location.path, reason: "cannot lock \(lockPath): \(error.reason)")
        }
    }
}
