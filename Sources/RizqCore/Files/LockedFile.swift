#if canImport(Glibc)
import Glibc
#endif

/// A whole file changed by read-modify-replace under its lock: device sync's replicas and state,
/// a fleet cache's state, markers. The lock is `.<name>.lock` beside `<name>.json` (a suite's
/// lock file has the same name), the read is a ``PrivateFile`` judged by the file's
/// ``FileTrust``, and the replace a ``FileReplacement`` over the version read: what suites have,
/// in one place, for every other file of the package.
package struct LockedFile: Sendable {
    /// The file's path.
    package let path: String
    /// The rule the file is judged by.
    package let trust: FileTrust
    /// The most a read accepts (and a replace writes).
    package let sizeLimit: Int
    /// How long a writer waits for another to let go.
    package let lockTimeout: Duration?

    /// The file at `path`, judged by `trust`.
    package init(path: String, trust: FileTrust, sizeLimit: Int = 256 << 20, lockTimeout: Duration? = .seconds(10)) {
        self.path = path
        self.trust = trust
        self.sizeLimit = sizeLimit
        self.lockTimeout = lockTimeout
    }

    /// The folder that holds it.
    package var directory: String { PrivateFolder.parent(of: path) }

    /// The lock file: `.<name>.lock`, where `name` is the file's name without `.json`.
    package var lockPath: String {
        var name = PrivateFolder.name(of: path)
        if name.hasSuffix(".json") { name.removeLast(5) }
        return directory + "/." + name + ".lock"
    }

    /// The file's bytes and version, `nil` when there is none; read without the lock (a replace
    /// is atomic, so this is one whole version).
    package func read() throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)? {
        try PrivateFolder.check(directory, trust: .settings("folder"))
        return try PrivateFile.read(path, trust: trust, limit: sizeLimit)
    }

    /// Runs `body` while holding the file's lock, with the file's bytes as they are (`nil`: no
    /// file) and a function that replaces them crash-safely (it may be called more than once).
    ///
    /// The replace returns `false`, and writes nothing, when the file changed under the body —
    /// replaced by a program that does not take the lock, or the lock file removed meanwhile:
    /// what the body decided was decided on a version that is gone. The body should then return
    /// at once; it runs again on the file as it is then (a bounded number of times), and that
    /// run's result is returned. Creates the folder (0700) when it is missing.
    package func withLock<T>(_ body: (_ current: [UInt8]?, _ replace: ([UInt8]) throws(FileError) -> Bool) throws -> T) throws -> T {
        try withLockStamped { current, replace in
            try withoutActuallyEscaping(replace) { replace in
                try body(current?.bytes) { (new: [UInt8]) throws(FileError) -> Bool in try replace(new) != nil }
            }
        }
    }

    /// ``withLock(_:)`` for a caller that keeps what it read and wrote (a cache keyed by the
    /// file's version): the body gets the bytes with the version they were read from, and the
    /// replace returns the version it wrote (`nil`, and nothing written, when the file changed
    /// under the body).
    package func withLockStamped<T>(
        _ body: (_ current: (bytes: [UInt8], stamp: FileStamp)?, _ replace: ([UInt8]) throws(FileError) -> FileStamp?) throws -> T
    ) throws -> T {
        try PrivateFolder.ensure(directory, trust: .settings("folder"), ownership: .inheritedWhenRoot)
        var lock = try FileLock.acquire(lockPath, timeout: lockTimeout, owner: FileOwner.of(path) ?? FileOwner.of(directory), subject: trust.subject + " " + path)
        // Each round needs another program to change the file between our read and our
        // replace; a bound only against one that does so without end.
        for _ in 0..<100 {
            let read = try PrivateFile.read(path, trust: trust, limit: sizeLimit)
            var stamp = read?.stamp
            var changed = false
            let value = try body(read) { (new: [UInt8]) throws(FileError) -> FileStamp? in
                guard !changed else { return nil }
                guard new.count <= sizeLimit else {
                    throw FileError(path: path, operation: .write, problem: .tooLarge(size: Int64(new.count), limit: sizeLimit), subject: trust.subject)
                }
                guard lock.isAtLockPath else {
                    changed = true
                    return nil
                }
                var replacement = try FileReplacement.prepare(new, for: path, owner: stamp?.owner, subject: trust.subject)
                switch try replacement.install(over: stamp.map { .version($0) } ?? .nothing) {
                case .replaced(let written):
                    stamp = written
                    return written
                case .changed:
                    changed = true
                    return nil
                }
            }
            if !changed { return value }
            if !lock.isAtLockPath { try lock.retake(timeout: lockTimeout) }
        }
        throw FileError(path: path, operation: .write, problem: .keepsChanging, subject: trust.subject)
    }

    /// Removes the file, durably; nothing when there is none. Its lock file stays (removing it
    /// would let two writers lock different files).
    package func remove() throws(FileError) {
        try AtomicFile.remove(path, subject: trust.subject)
    }
}
