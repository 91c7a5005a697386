#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Identifies one version of a file: a rename gives a new inode, a rewrite a new size or time.
struct FileStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    /// Modification time in nanoseconds since 1970.
    var modifiedTime: Int64 { Int64(modifiedSeconds) * 1_000_000_000 + Int64(modifiedNanoseconds) }

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
    }

    /// The stamp of whatever is at `path` (not followed if a link); `nil` when nothing is.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStamp(info) : nil
    }
}
