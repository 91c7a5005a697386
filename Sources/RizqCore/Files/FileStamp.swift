#if canImport(Glibc)
import Glibc
#endif

/// One version of a file, known without reading it: device, inode, size, the modification and
/// change times to the nanosecond, and its owner and mode.
///
/// Two comparisons, for two questions:
/// - `==` (every field that a write can change, the change time included): *is the file still
///   what was read?* An atomic replace gives a new inode; a write in place gives a new change
///   time, which no user can set back (a modification time can be, with `touch -d`). A reader
///   that cached what it decoded keeps it only while the stamp is `==`.
/// - ``isSameVersion(as:)`` (device, inode, size, modification time): *is this the file that
///   was written?* A rename changes the renamed file's change time, so a writer that names its
///   version before renaming it into place (a change log's segment, the check of what an
///   atomic swap displaced) compares this way.
///
/// Owner and mode are carried, not compared: a `chown` makes no new version.
package struct FileStamp: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modifiedSeconds: Int
    package var modifiedNanoseconds: Int
    package var changedSeconds: Int
    package var changedNanoseconds: Int
    /// Its owner and group when it was stamped (not compared).
    package var owner: FileOwner
    /// Its mode bits, type included (not compared).
    package var mode: UInt32

    package init(
        device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int, changedSeconds: Int = 0,
        changedNanoseconds: Int = 0, owner: FileOwner = FileOwner(user: 0, group: 0), mode: UInt32 = UInt32(S_IFREG) | 0o600
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
        self.owner = owner
        self.mode = mode
    }

    /// The stamp of the file `info` describes (from `fstat` of the descriptor read, or `lstat`).
    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        changedSeconds = Int(info.st_ctim.tv_sec)
        changedNanoseconds = Int(info.st_ctim.tv_nsec)
        owner = FileOwner(user: info.st_uid, group: info.st_gid)
        mode = UInt32(info.st_mode)
    }

    package static func == (left: FileStamp, right: FileStamp) -> Bool {
        left.isSameVersion(as: right) && left.changedSeconds == right.changedSeconds && left.changedNanoseconds == right.changedNanoseconds
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(size)
        hasher.combine(modifiedSeconds)
        hasher.combine(modifiedNanoseconds)
    }

    /// Same file, same contents as far as a writer can tell: device, inode, size and modification
    /// time (not the change time, which the rename into place moves on).
    package func isSameVersion(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modifiedSeconds == other.modifiedSeconds
            && modifiedNanoseconds == other.modifiedNanoseconds
    }

    /// What ``isSameVersion(as:)`` compares, as a value to key a table by (a change log's
    /// segments are found by the version they record).
    package struct Version: Hashable, Sendable {
        package var device: UInt64
        package var inode: UInt64
        package var size: Int64
        package var modifiedSeconds: Int
        package var modifiedNanoseconds: Int
    }

    /// This stamp's ``Version``.
    package var version: Version {
        Version(device: device, inode: inode, size: size, modifiedSeconds: modifiedSeconds, modifiedNanoseconds: modifiedNanoseconds)
    }

    /// Modification time in nanoseconds since 1970.
    package var modifiedTime: Int64 { Int64(modifiedSeconds) &* 1_000_000_000 &+ Int64(modifiedNanoseconds) }

    /// The stamp of whatever is at `path` (a final link is not followed); `nil` when nothing is.
    package static func of(_ path: String) -> FileStamp? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStamp(info) : nil
    }

    /// The stamp of the open file `descriptor`; `nil` when `fstat` fails.
    package static func of(descriptor: Int32) -> FileStamp? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileStamp(info) : nil
    }
}

/// Who owns a file: its user and group ids.
package struct FileOwner: Equatable, Hashable, Sendable {
    package var user: uid_t
    package var group: gid_t

    package init(user: uid_t, group: gid_t) {
        self.user = user
        self.group = group
    }

    /// The owner of whatever is at `path` (a final link itself); `nil` when nothing is.
    package static func of(_ path: String) -> FileOwner? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileOwner(user: info.st_uid, group: info.st_gid)
    }
}
