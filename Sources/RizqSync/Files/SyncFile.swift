import RizqCore
import RizqPrefs

/// A file of device sync — a replica in the synced folder, this device's state — kept by
/// RizqCore's ``LockedFile`` (the lock `.<name>.lock`, the one atomic replace, the trust checks
/// of ``FileTrust/settings(_:)`` on every read), with its errors as the suites' (device sync
/// reports them as ``SyncError/storage(_:)``).
struct SyncFile: Sendable {
    private let file: LockedFile

    /// The file's path: `<directory>/<name>.json`.
    var path: String { file.path }

    /// The file `<directory>/<name>.json`; `name` follows the rules of suite names.
    /// - Throws: ``/RizqPrefs/SuiteStoreError/invalidSuiteName(name:reason:)``.
    init(directory: String, name: String, subject: String) throws(SuiteStoreError) {
        if let reason = SuiteLocation.problem(withName: name) { throw .invalidSuiteName(name: name, reason: reason) }
        file = LockedFile(path: directory + "/" + name + ".json", trust: .settings(subject))
    }

    /// The file's bytes, `nil` when there is none; read without the lock (a replace is atomic,
    /// so this is one whole version).
    func read() throws(SuiteStoreError) -> [UInt8]? {
        do {
            return try file.read()?.bytes
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    /// ``LockedFile/withLock(_:)``, with the suites' errors.
    func withLock<T>(_ body: (_ current: [UInt8]?, _ replace: ([UInt8]) throws(SuiteStoreError) -> Bool) throws -> T) throws -> T {
        do {
            return try file.withLock { current, replace in
                try withoutActuallyEscaping(replace) { replace in
                    try body(current) { (bytes: [UInt8]) throws(SuiteStoreError) -> Bool in
                        do throws(FileError) {
                            return try replace(bytes)
                        } catch {
                            throw .writeFailed(path: path, reason: error.reason)
                        }
                    }
                }
            }
        } catch let error as FileError {
            if case .lockTimedOut(let waited, let holders) = error.problem {
                throw SuiteStoreError.lockTimedOut(path: path, lockFile: file.lockPath, waited: waited, holders: holders)
            }
            throw error.operation == .read ? SuiteStoreError.unreadable(path: path, reason: error.reason) : .writeFailed(path: path, reason: error.reason)
        }
    }

    /// Removes the file, durably; nothing when there is none.
    func remove() throws(SuiteStoreError) {
        do {
            try file.remove()
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
    }
}
