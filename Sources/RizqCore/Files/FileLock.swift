import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Proof that a lock file's `flock` is held: the one lock between processes of every file this
/// package keeps (a suite's `.<suite>.lock`, the vault's `lock`, a fleet cache's, a journal's).
///
/// Non-copyable: the lock is let go when the value ends (or by ``release()``), never twice, and
/// what must run under it takes it as an argument, so that holding it is a matter of types. A
/// wait for another process is bounded and, when it gives up, names the holder and what to do
/// (``FileError/Problem/lockTimedOut(waited:holders:)``).
///
/// A lock on a file that is no longer at the lock path excludes nobody (a `*.lock` clean-up
/// removed it, and the next process made a new one), so the lock is taken on a descriptor
/// checked, after `flock` returns, to still be the file at the path (``isAtLockPath``); a holder
/// that finds it gone takes it again (``retake(timeout:)``).
package struct FileLock: ~Copyable, Sendable {
    /// The lock file's descriptor that the `flock` is on.
    private var descriptor: Int32
    /// Which file that is.
    private var file: (device: UInt64, inode: UInt64)
    /// Where the lock file is.
    package let path: String
    /// Whether it is held shared (`LOCK_SH`, a reader) rather than exclusively.
    package let isShared: Bool
    /// What it locks, for messages ("suite file /x/y.json").
    package let subject: String

    private init(descriptor: Int32, file: (device: UInt64, inode: UInt64), path: String, isShared: Bool, subject: String) {
        self.descriptor = descriptor
        self.file = file
        self.path = path
        self.isShared = isShared
        self.subject = subject
    }

    deinit {
        if descriptor >= 0 {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Takes the lock on `path` (created 0600 if missing; never opened through a link), waiting
    /// at most `timeout` for another process to let go (`nil`: for ever; zero: not at all).
    /// A root process gives a lock file it creates the owner `owner` (the file it locks belongs
    /// to a user), so that the user's own processes can open it later.
    /// - Throws: ``FileError`` — the lock file cannot be opened or is not a regular file, or
    ///   the wait timed out (naming the holder).
    package static func acquire(
        _ path: String, shared: Bool = false, timeout: Duration?, owner: FileOwner? = nil, subject: String = "lock file"
    ) throws(FileError) -> FileLock {
        let operation = shared ? LOCK_SH : LOCK_EX
        // Each round needs the lock file to be removed or replaced between our open and our
        // check; a bound only against a program that does so without end.
        for _ in 0..<10_000 {
            // Read-only is enough for flock, and lets an existing lock file open on a read-only
            // mount (the write then fails, saying why, when it creates its temporary file).
            // Made here (O_EXCL), or opened as it is: only a file this process made is given away.
            let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
            var created = true
            var descriptor = SystemCalls.open(path, flags | O_CREAT | O_EXCL, 0o600)
            if descriptor < 0, Errno.current == .fileExists {
                created = false
                descriptor = SystemCalls.open(path, flags)
                if descriptor < 0, Errno.current == .noSuchFile { continue }
            }
            guard descriptor >= 0 else {
                let code = Errno.current
                if code == .tooManySymbolicLinks {
                    throw FileError(path: path, operation: .lock, problem: .symbolicLink(target: FileWords.linkTarget(path)), subject: "lock file")
                }
                throw FileError(path: path, operation: .lock, problem: .system(code), subject: "lock file")
            }
            let info = try PrivateFile.status(ofOpened: descriptor, path: path, .lock, subject: "lock file")
            guard info.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw FileError(
                    path: path, operation: .lock, problem: .wrongKind(found: FileWords.kindName(info.st_mode), expected: "a regular file"),
                    subject: "lock file")
            }
            // A root process gives the user the lock file it just made for the user's file — never
            // one it found (a hard link to a root file would be handed over with it).
            if created, info.st_nlink == 1, geteuid() == 0, let owner, owner.user != 0 || owner.group != 0 {
                _ = SystemCalls.fchown(descriptor, owner.user, owner.group)
            }
            let file = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            let locked = try lock(descriptor, file: file, operation: operation, path: path, timeout: timeout, subject: subject)
            let held = FileLock(descriptor: locked, file: file, path: path, isShared: shared, subject: subject)
            if held.isAtLockPath { return held }
            // Removed or replaced while we waited: whoever holds the file there now excludes us.
        }
        throw FileError(path: path, operation: .lock, problem: .keepsChanging, subject: "lock file")
    }

    /// The lock on `path` if no process holds it now, else `nil` (never waits): a running
    /// import's journal, a fleet cache another process uses.
    package static func tryAcquire(_ path: String, subject: String = "lock file") throws(FileError) -> FileLock? {
        do {
            return try acquire(path, timeout: .zero, subject: subject)
        } catch {
            if case .lockTimedOut = error.problem { return nil }
            throw error
        }
    }

    /// Whether the lock is still on the file at the lock path (it was not removed or replaced
    /// since it was taken).
    package var isAtLockPath: Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == file.device && UInt64(info.st_ino) == file.inode
    }

    /// Takes the lock again, on the file at the lock path now, after it was found gone
    /// (``isAtLockPath``): waits for whoever holds that one.
    package mutating func retake(timeout: Duration?) throws(FileError) {
        release()
        let fresh = try FileLock.acquire(path, shared: isShared, timeout: timeout, subject: subject)
        descriptor = fresh.takeDescriptor()
        file = FileLock.identity(of: descriptor)
    }

    /// Lets go of the lock now (the value's end would).
    package mutating func release() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    private consuming func takeDescriptor() -> Int32 {
        let taken = descriptor
        descriptor = -1
        return taken
    }

    private static func identity(of descriptor: Int32) -> (device: UInt64, inode: UInt64) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return (0, 0) }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// `flock`s `descriptor`: at once when the lock is free (the usual case, one system call),
    /// else waiting at most `timeout` (``LockWaiter``). Returns the descriptor that holds the
    /// lock (a wait that took over an earlier, abandoned one returns that one's; `descriptor`
    /// is closed then).
    private static func lock(
        _ descriptor: Int32, file: (device: UInt64, inode: UInt64), operation: Int32, path: String, timeout: Duration?, subject: String
    ) throws(FileError) -> Int32 {
        while SystemCalls.flock(descriptor, operation | LOCK_NB) != 0 {
            let code = Errno.current
            guard code == .wouldBlock else {
                close(descriptor)
                throw FileError(path: path, operation: .lock, problem: .system(code), subject: "lock file")
            }
            if timeout == .zero {
                close(descriptor)
                throw FileError(path: path, operation: .lock, problem: .lockTimedOut(waited: "0 s", holders: holders(file)), subject: subject)
            }
            switch LockWaiter.wait(on: descriptor, file: file, path: path, operation: operation, until: deadline(after: timeout)) {
            case .acquired(let held):
                return held
            case .failed(let failure):
                throw FileError(path: path, operation: .lock, problem: .system(Errno(rawValue: failure)), subject: "lock file")
            case .timedOut:
                throw FileError(path: path, operation: .lock, problem: .lockTimedOut(waited: words(timeout), holders: holders(file)), subject: subject)
            }
        }
        return descriptor
    }

    private static func holders(_ file: (device: UInt64, inode: UInt64)) -> String {
        LockHolders.describe(LockHolders.holders(device: file.device, inode: file.inode))
    }

    /// `timeout` from now, as a deadline for a semaphore; `nil` for `nil`.
    package static func deadline(after timeout: Duration?) -> DispatchTime? {
        guard let timeout else { return nil }
        let (seconds, attoseconds) = timeout.components
        return .now() + .nanoseconds(Int(min(seconds, 1 << 30) * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    /// "10 s", "0.5 s", for messages.
    package static func words(_ timeout: Duration?) -> String {
        guard let timeout else { return "ever" }
        let (seconds, attoseconds) = timeout.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
