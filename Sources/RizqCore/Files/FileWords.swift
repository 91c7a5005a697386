#if canImport(Glibc)
import Glibc
#endif

/// Words for what went wrong with a file, that point at the fix: what every error of the file
/// layer says, and what other modules' messages about files reuse.
package enum FileWords {
    /// Why a write failed, in words that point at the fix.
    package static func writeReason(_ code: Errno) -> String {
        switch code {
        case .noSpace, .quotaExceeded:
            return "the disk is full (\(code)); free space on it"
        case .readOnlyFileSystem:
            return "the file system is read-only (\(code)); remount it read-write, or set RIZQ_PREFS_HOME to a writable folder"
        case .notPermitted:
            return "the folder or file is immutable or not yours (\(code)); lsattr and chattr -i it, or chown it to yourself"
        case .fileTooLarge:
            return "the file is too large for this file system (\(code)); remove large values"
        default:
            return code.description
        }
    }

    /// ``writeReason(_:)`` of a raw error number.
    package static func writeReason(_ code: Int32) -> String { writeReason(Errno(rawValue: code)) }

    /// What kind of file a mode says: "a FIFO (named pipe)", "a folder", ….
    package static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "a special file"
        }
    }

    /// Where the symbolic link at `path` points, quoted; "somewhere" when it cannot be read.
    package static func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "somewhere" }
        return "'" + String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) + "'"
    }

    /// The login name of `user`, or "no name".
    package static func userName(_ user: UInt32) -> String {
        guard let entry = getpwuid(user), let name = entry.pointee.pw_name else { return "no name" }
        return String(cString: name)
    }

    /// "272 MiB", "12 KiB", "300 bytes".
    package static func size(_ bytes: Int64) -> String {
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
