import RizqCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Words for what went wrong with a file, that point at the fix: what every error of the disk
/// layer says.
enum FileProblem {
    /// The C library's words for `code`.
    static func message(_ code: Int32) -> String {
        Errno(rawValue: code).description
    }

    /// Why a write failed, in words that point at the fix.
    static func writeReason(_ code: Int32) -> String {
        switch Errno(rawValue: code) {
        case .noSpace, .quotaExceeded:
            return "the disk is full (\(message(code))); free space on it"
        case .readOnlyFileSystem:
            return "the file system is read-only (\(message(code))); remount it read-write, or set RIZQ_PREFS_HOME to a writable folder"
        case .notPermitted:
            return "the folder or file is immutable or not yours (\(message(code))); lsattr and chattr -i it, or chown it to yourself"
        case .fileTooLarge:
            return "the file is too large for this file system (\(message(code))); remove large values"
        default:
            return message(code)
        }
    }

    /// What kind of file a mode says: "a FIFO (named pipe)", "a folder", ….
    static func kindName(_ mode: mode_t) -> String {
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
    static func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "somewhere" }
        return "'" + String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) + "'"
    }
}
