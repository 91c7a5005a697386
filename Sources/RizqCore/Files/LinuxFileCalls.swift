#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// The renames the write path needs beyond `rename(2)`, as Linux gives them (`renameat2(2)`),
/// with what to do where they are missing: an errno of `EINVAL` or `ENOSYS` means "this file
/// system (or kernel) cannot", and the caller falls back to a plain rename after a check.
package enum LinuxFileCalls {
    /// Swaps two paths atomically (`RENAME_EXCHANGE`): each name then names the other's file.
    /// Returns 0, or the errno.
    package static func exchange(_ first: String, _ second: String) -> Int32 {
        SystemCalls.renameat2(first, second, flags: 2) == 0 ? 0 : errno
    }

    /// Renames `source` to `target` only if `target` does not exist (`RENAME_NOREPLACE`):
    /// `EEXIST` otherwise. Returns 0, or the errno.
    package static func renameNoReplace(_ source: String, _ target: String) -> Int32 {
        SystemCalls.renameat2(source, target, flags: 1) == 0 ? 0 : errno
    }

    /// Starts writing `descriptor`'s dirty pages to the device and returns without waiting
    /// (`sync_file_range(SYNC_FILE_RANGE_WRITE)`): a hint, so that an `fsync` of another file
    /// meanwhile can commit these blocks with its own. Durability still takes an `fsync` of
    /// this file; nothing when the call is missing or fails.
    package static func startWriteBack(_ descriptor: Int32) {
        #if os(Linux)
        _ = sync_file_range(descriptor, 0, 0, 2)
        #endif
    }

    /// Whether an errno from the calls above means that the file system cannot do it.
    package static func isUnsupported(_ code: Int32) -> Bool {
        code == EINVAL || code == ENOSYS || code == EOPNOTSUPP
    }
}

extension LinuxFileCalls {
    /// The value of the extended attribute `name` of the open file `descriptor`; `nil` when it
    /// has none, or the file system keeps none.
    package static func attribute(_ name: String, of descriptor: Int32) -> [UInt8]? {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { fgetxattr(descriptor, name, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return Array(buffer.prefix(count))
        #else
        return nil
        #endif
    }

    /// The value of the extended attribute `name` of the file at `path` (a link itself, not
    /// followed); `nil` when it has none.
    package static func attribute(_ name: String, atPath path: String) -> [UInt8]? {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { lgetxattr(path, name, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return Array(buffer.prefix(count))
        #else
        return nil
        #endif
    }

    /// Sets the extended attribute `name` of the open file `descriptor`; `false` when the file
    /// system keeps none (or not this large).
    @discardableResult
    package static func setAttribute(_ name: String, to value: [UInt8], of descriptor: Int32) -> Bool {
        #if os(Linux)
        return value.withUnsafeBytes { fsetxattr(descriptor, name, $0.baseAddress, $0.count, 0) } == 0
        #else
        return false
        #endif
    }
}
