#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON file of this package's own that is not a suite — device sync's replicas and its
/// state — kept exactly as suite files are kept: the same lock between processes
/// (`.<name>.lock` beside it), the same crash-safe replace (temporary file, fsync, atomic swap,
/// fsync of the folder), the same refusal of symbolic links, special files and oversized files.
///
/// The `package` door into `Disk/` for other modules of this package: what it offers is what
/// suites use, through ``SuiteFile``, nothing of its own.
package struct LockedFile: Sendable {
    private let file: SuiteFile

    /// The file's path: `<directory>/<name>.json`.
    package var path: String { file.location.path }
    /// The folder that holds it.
    package var directory: String { file.location.directory }

    /// The file `<directory>/<name>.json`; `name` follows the rules of suite names
    /// (``SuiteLocation/problem(withName:)``).
    /// - Throws: ``SuiteStoreError/invalidSuiteName(name:reason:)``.
    package init(directory: String, name: String) throws(SuiteStoreError) {
        if let reason = SuiteLocation.problem(withName: name) { throw .invalidSuiteName(name: name, reason: reason) }
        file = SuiteFile(location: SuiteLocation(unvalidated: name, root: directory))
    }

    /// The file's bytes, `nil` when there is none; read without the lock (a replace is atomic,
    /// so this is one whole version).
    package func read() throws(SuiteStoreError) -> [UInt8]? {
        if let problem = file.folderProblem() { throw .unreadable(path: path, reason: problem) }
        return try RegularFile.read(path)?.bytes
    }

    /// Runs `body` while holding the file's lock, with the file's bytes as they are (`nil`: no
    /// file) and a function that replaces them crash-safely (it may be called more than once).
    ///
    /// The replace returns `false`, and writes nothing, when the file changed under the body —
    /// replaced by a program that does not take the lock, or the lock file removed meanwhile:
    /// what the body decided was decided on a version that is gone. The body should then
    /// return at once; it runs again on the file as it is then (a bounded number of times), and
    /// that run's result is returned. Creates the folder (mode 0700) when it is missing.
    package func withLock<T>(_ body: (_ current: [UInt8]?, _ replace: ([UInt8]) throws(SuiteStoreError) -> Bool) throws -> T) throws -> T {
        var failure: (any Error)?
        let result = try file.withLock { lock throws(SuiteStoreError) -> T? in
            // Each round needs another program to change the file between our read and our
            // replace; a bound only against one that does so without end.
            for _ in 0..<100 {
                var stamp = try file.stamp()
                let bytes = try RegularFile.read(path)?.bytes
                if bytes == nil { stamp = nil }
                var changed = false
                let value: T
                do {
                    value = try body(bytes) { (new: [UInt8]) throws(SuiteStoreError) -> Bool in
                        guard !changed else { return false }
                        switch try file.replace(bytes: new, over: stamp, lock) {
                        case .replaced(let written):
                            stamp = written
                            return true
                        case .lockLost, .fileChanged:
                            changed = true
                            return false
                        }
                    }
                } catch let error as SuiteStoreError {
                    throw error
                } catch {
                    failure = error
                    return nil
                }
                if !changed { return value }
                if !lock.isAtLockPath { try file.retake(&lock) }
            }
            throw .writeFailed(path: path, reason: "another program keeps replacing the file without taking its lock (\(path)); stop it and try again")
        }
        if let failure { throw failure }
        guard let result else { throw SuiteStoreError.writeFailed(path: path, reason: "the file could not be updated") }
        return result
    }

    /// Removes the file, durably; nothing when there is none. Its lock file stays (removing
    /// it would let two writers lock different files).
    package func remove() throws(SuiteStoreError) {
        try file.remove()
    }
}
