#if Secrets
import RizqCore
import Synchronization

/// What this process last read or wrote of each file keyring: the decoded file, keyed by its
/// version (``FileStamp``: device, inode, size, modification and change times to the
/// nanosecond, owner and mode), with the key derived for it and the password it was derived
/// from.
///
/// A read of an unchanged file costs one `lstat`; a write by any other process (or a `chmod`)
/// changes the stamp, and the file is read again. The key is kept across versions while the
/// salt, the iteration count and the password stay the same, so that another writer's change
/// costs a read and a decode, not another 30 ms of PBKDF2. A failure is never kept.
final class FileKeyringCache: Sendable {
    /// One keyring's last known state.
    struct Entry: Sendable {
        /// The version of the file `file` was read from or written to.
        var stamp: FileStamp
        /// Its contents.
        var file: FileKeyringFile
        /// The key derived for its salt and iteration count from `password`.
        var key: FileKeyringKey
        /// The password the key is derived from.
        var password: FileKeyringPassword
    }

    /// The process's cache.
    static let shared = FileKeyringCache()

    private let entries = Mutex<[String: Entry]>([:])

    /// The version of `path` kept, if any.
    func stamp(_ path: String) -> FileStamp? {
        entries.withLock { $0[path]?.stamp }
    }

    /// The entry of `path` if it is of version `stamp` and keyed by `password`'s bytes.
    func entry(_ path: String, stamp: FileStamp, password: FileKeyringPassword) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[path], entry.stamp == stamp, entry.password.hasSameBytes(as: password) else { return nil }
            return entry
        }
    }

    /// The key already derived for `path` from `password`, `salt` and `iterations`, if any.
    func key(_ path: String, password: FileKeyringPassword, salt: [UInt8], iterations: UInt32) -> FileKeyringKey? {
        entries.withLock { entries in
            guard let entry = entries[path], entry.file.salt == salt, entry.file.iterations == iterations,
                  entry.password.hasSameBytes(as: password)
            else { return nil }
            return entry.key
        }
    }

    /// Keeps `entry` for `path`.
    func remember(_ path: String, _ entry: Entry) {
        entries.withLock { $0[path] = entry }
    }

    /// Forgets `path` (after a failure, or when the file is gone).
    func forget(_ path: String) {
        entries.withLock { _ = $0.removeValue(forKey: path) }
    }
}
#endif
