import RizqCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Proof that a suite's file lock is held: an `flock` on the hidden `.<suite>.lock` beside the
/// file, so that writers in other processes take turns.
///
/// Only ``SuiteFile/withLock(_:)`` makes one, for the length of its body; what must run under
/// the lock takes it as an argument, so that holding the lock is a matter of types, not of a
/// flag (a second `flock` from this process would wait for itself). Non-copyable: it never
/// leaves the body.
struct SuiteFileLock: ~Copyable {
    /// The lock file's descriptor that the `flock` is on.
    fileprivate var descriptor: Int32
    /// Which file that is: the lock excludes others only while it is the file at the lock path.
    fileprivate var file: (device: UInt64, inode: UInt64)
    /// Where the lock file is.
    let path: String
    /// `LOCK_EX`, or `LOCK_SH` for a reader (``SuiteFile/withLock(shared:_:)``).
    let operation: Int32

    /// Lets go of the lock; the descriptor is forgotten, so that a second release (the body's
    /// end after a ``SuiteFile/retake(_:)`` that failed) closes nothing that may be another
    /// file's by then.
    fileprivate mutating func release() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    /// Whether the lock is still on the file at the lock path (it was not removed or replaced
    /// since it was taken).
    var isAtLockPath: Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == file.device && UInt64(info.st_ino) == file.inode
    }
}

extension SuiteFile {
    private var lockPath: String { location.directory + "/." + location.suiteName + ".lock" }

    /// Holds the suite's advisory lock while `body` runs.
    ///
    /// A lock on a file that is no longer at the lock path excludes nobody (a `*.lock` cleanup
    /// removed it, and the next writer made a new one), so the lock is taken on a descriptor
    /// checked, after `flock` returns, to still be the file at the path; if it is not, it is taken
    /// again on the file there now. The lock file is never opened through a symbolic link.
    ///
    /// The wait for another process to let go is bounded (``LockTimeout``): after it, the body
    /// does not run and ``SuiteStoreError/lockTimedOut(path:lockFile:waited:holders:)`` names
    /// who holds the lock. `shared` takes it shared (`LOCK_SH`), as a reader that must see the
    /// suite file and its change record as one version does: writers exclude it, other readers do not.
    func withLock<T>(shared: Bool = false, _ body: (inout SuiteFileLock) throws(SuiteStoreError) -> T) throws(SuiteStoreError) -> T {
        try ensureDirectory()
        var lock = try takeLock(shared ? LOCK_SH : LOCK_EX)
        defer { lock.release() }
        return try body(&lock)
    }

    /// Takes the lock again, on the file at the lock path now, after it was found gone
    /// (``SuiteFileLock/isAtLockPath``): waits for whoever holds that one.
    func retake(_ lock: inout SuiteFileLock) throws(SuiteStoreError) {
        let operation = lock.operation
        lock.release()
        lock = try takeLock(operation)
    }

    private func takeLock(_ operation: Int32) throws(SuiteStoreError) -> SuiteFileLock {
        let path = lockPath
        // Each round needs the lock file to be removed or replaced between our open and our
        // check; a bound only against a program that does so without end.
        for _ in 0..<10_000 {
            // Read-only is enough for flock, and lets an existing lock file open on a read-only
            // mount (the write then fails, saying why, when it creates its temporary file).
            let descriptor = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
            guard descriptor >= 0 else { throw lockError(errno) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let code = errno
                close(descriptor)
                throw lockError(code)
            }
            // Made by a root process in a user's folder: the user's, as the suite file.
            if info.st_uid == 0, geteuid() == 0 { keepOwner(of: descriptor, created: true) }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                throw .writeFailed(
                    path: location.path,
                    reason: "its lock file \(path) is not a regular file (\(FileProblem.kindName(info.st_mode))); remove it (rm '\(path)') and try again")
            }
            let file = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            let locked = try lockDescriptor(descriptor, file: file, operation: operation, path: path)
            var held = SuiteFileLock(descriptor: locked, file: file, path: path, operation: operation)
            if held.isAtLockPath { return held }
            // Removed or replaced while we waited: whoever holds the file there now excludes us.
            held.release()
        }
        throw .writeFailed(path: location.path, reason: "its lock file \(path) keeps being removed or replaced; stop the program that does it")
    }

    /// `flock`s `descriptor` (the lock file `file` at `path`): at once when the lock is free (the
    /// usual case, one system call), else waiting at most ``LockTimeout/current``. Returns the
    /// descriptor that holds the lock (a wait that took over an earlier, abandoned one returns
    /// that one's; `descriptor` is closed then), which the caller closes.
    private func lockDescriptor(_ descriptor: Int32, file: (device: UInt64, inode: UInt64), operation: Int32, path: String) throws(SuiteStoreError) -> Int32 {
        while flock(descriptor, operation | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                close(descriptor)
                throw .writeFailed(path: location.path, reason: "cannot lock \(path): \(FileProblem.message(code))")
            }
            let timeout = LockTimeout.current
            switch LockWaiter.wait(on: descriptor, file: file, path: path, operation: operation, until: LockTimeout.deadline(after: timeout)) {
            case .acquired(let held):
                return held
            case .failed(let failure):
                throw .writeFailed(path: location.path, reason: "cannot lock \(path): \(FileProblem.message(failure))")
            case .timedOut:
                let holders = LockHolders.holders(device: file.device, inode: file.inode)
                SuiteEngine.logger.warning(
                    "gave up waiting for the lock of suite file \(location.path) after \(LockTimeout.words(timeout)): held by \(LockHolders.describe(holders))",
                    metadata: ["suite": "\(location.suiteName)"])
                throw .lockTimedOut(path: location.path, lockFile: path, waited: LockTimeout.words(timeout), holders: LockHolders.describe(holders))
            }
        }
        return descriptor
    }

    private func lockError(_ code: Int32) -> SuiteStoreError {
        if code == ELOOP {
            return .writeFailed(
                path: location.path,
                reason: "its lock file \(lockPath) is a symbolic link, and suite files are never written through links; remove the link (rm '\(lockPath)') and try again")
        }
        return .writeFailed(path: location.path, reason: "cannot open lock file \(lockPath): \(FileProblem.writeReason(code))")
    }
}
