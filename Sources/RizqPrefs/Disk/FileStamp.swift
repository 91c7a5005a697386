#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Identifies one version of a file: a rename gives a new inode, a rewrite a new size or time.
/// Also carries the file's owner, which is not part of the version (a `chown` makes none).
struct FileStamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    /// The file's owner and group when it was stamped (not compared: see the type).
    var owner: FileOwner = FileOwner(user: 0, group: 0)

    static func == (left: FileStamp, right: FileStamp) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.modifiedSeconds == right.modifiedSeconds && left.modifiedNanoseconds == right.modifiedNanoseconds
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(size)
        hasher.combine(modifiedSeconds)
        hasher.combine(modifiedNanoseconds)
    }

    /// Modification time in nanoseconds since 1970.
    var modifiedTime: Int64 { Int64(modifiedSeconds) * 1_000_000_000 + Int64(modifiedNanoseconds) }

    init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = info.st_mtimespec.tv_sec
        modifiedNanoseconds = info.st_mtimespec.tv_nsec
        #else
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        #endif
        owner = FileOwner(user: info.st_uid, group: info.st_gid)
    }

    /// The stamp of whatever is at `path` (not followed if a link); `nil` when nothing is.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStamp(info) : nil
    }
}

/// Who owns a file: its user and group ids.
struct FileOwner: Equatable, Sendable {
    var user: uid_t
    var group: gid_t
}
