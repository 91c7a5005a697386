#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// The system calls that change files, as the file layer (``PrivateFile``, ``FileLock``,
/// ``FileReplacement``, ``FileJournal``, ``PrivateFolder``, ``DescriptorIO``) makes them: each
/// made again for as long as a signal interrupts it (`EINTR`), and each returning what the C
/// call returns, with `errno` set on failure.
///
/// In debug builds (`RIZQ_FAULT_INJECTION`, as swift-system's `ENABLE_MOCKING`) each call first
/// asks ``SystemCallFaults`` whether a test planned a fault for it on this thread — an error, a
/// shorter read or write, a stop before it — and is otherwise the real call. Release builds
/// make the C call directly: the wrappers inline away.
package enum SystemCalls {
    /// The calls that can be given a fault.
    package enum Call: String, Sendable, CaseIterable {
        case open, read, write, fsync, fdatasync, flock, fchmod, fchown, chmod, lchown, mkdir, unlink, rename, renameat2
    }

    /// `open(2)`, with `mode` for a file it creates.
    @inline(__always)
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        retrying(.open, path) { Glibc.open(path, flags, mode) }
    }

    /// `read(2)` of at most `count` bytes into `buffer`.
    @inline(__always)
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        retrying(.read, "descriptor \(descriptor)", count: count) { Glibc.read(descriptor, buffer, $0) }
    }

    /// `write(2)` of at most `count` bytes from `buffer`.
    @inline(__always)
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        retrying(.write, "descriptor \(descriptor)", count: count) { Glibc.write(descriptor, buffer, $0) }
    }

    /// `fsync(2)`: the file's data and metadata on the device.
    @inline(__always)
    package static func fsync(_ descriptor: Int32) -> Int32 {
        retrying(.fsync, "descriptor \(descriptor)") { Glibc.fsync(descriptor) }
    }

    /// `fdatasync(2)`: the file's data (and the size) on the device.
    @inline(__always)
    package static func fdatasync(_ descriptor: Int32) -> Int32 {
        retrying(.fdatasync, "descriptor \(descriptor)") { Glibc.fdatasync(descriptor) }
    }

    /// `flock(2)`.
    @inline(__always)
    package static func flock(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        retrying(.flock, "descriptor \(descriptor)") { lockFile(descriptor, operation) }
    }

    /// `fchmod(2)`.
    @inline(__always)
    package static func fchmod(_ descriptor: Int32, _ mode: mode_t) -> Int32 {
        retrying(.fchmod, "descriptor \(descriptor)") { Glibc.fchmod(descriptor, mode) }
    }

    /// `fchown(2)`.
    @inline(__always)
    package static func fchown(_ descriptor: Int32, _ user: uid_t, _ group: gid_t) -> Int32 {
        retrying(.fchown, "descriptor \(descriptor)") { Glibc.fchown(descriptor, user, group) }
    }

    /// `chmod(2)`.
    @inline(__always)
    package static func chmod(_ path: String, _ mode: mode_t) -> Int32 {
        retrying(.chmod, path) { Glibc.chmod(path, mode) }
    }

    /// `lchown(2)`: the owner of `path` itself, a final link not followed.
    @inline(__always)
    package static func lchown(_ path: String, _ user: uid_t, _ group: gid_t) -> Int32 {
        retrying(.lchown, path) { Glibc.lchown(path, user, group) }
    }

    /// `mkdir(2)`.
    @inline(__always)
    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        retrying(.mkdir, path) { Glibc.mkdir(path, mode) }
    }

    /// `mkdirat(2)`: `name` in the folder open as `folder`, whose path is `path` (for a fault
    /// planned for `mkdir`, which applies).
    @inline(__always)
    package static func mkdirat(_ folder: Int32, _ name: String, _ mode: mode_t, path: String) -> Int32 {
        retrying(.mkdir, path) { Glibc.mkdirat(folder, name, mode) }
    }

    /// `openat(2)`: `name` in the folder open as `folder`, whose path is `path` (a fault planned
    /// for `open` applies).
    @inline(__always)
    package static func openat(_ folder: Int32, _ name: String, _ flags: Int32, path: String) -> Int32 {
        retrying(.open, path) { Glibc.openat(folder, name, flags, 0) }
    }

    /// `unlink(2)`.
    @discardableResult
    @inline(__always)
    package static func unlink(_ path: String) -> Int32 {
        retrying(.unlink, path) { Glibc.unlink(path) }
    }

    /// `rename(2)`.
    @inline(__always)
    package static func rename(_ source: String, _ target: String) -> Int32 {
        retrying(.rename, source + " -> " + target) { Glibc.rename(source, target) }
    }

    /// `renameat2(2)` with `flags` (`RENAME_NOREPLACE` 1, `RENAME_EXCHANGE` 2); `ENOSYS` where
    /// there is none.
    @inline(__always)
    package static func renameat2(_ source: String, _ target: String, flags: UInt32) -> Int32 {
        #if os(Linux)
        return retrying(.renameat2, source + " -> " + target) { CLinuxFileCalls.renameat2(AT_FDCWD, source, AT_FDCWD, target, flags) }
        #else
        errno = ENOSYS
        return -1
        #endif
    }

    /// Makes `body` (a call that returns `-1` and sets `errno` on failure) again while it fails
    /// with `EINTR`; in debug builds, a fault planned for `call` comes first.
    @inline(__always)
    private static func retrying<Result: FixedWidthInteger>(_ call: Call, _ detail: @autoclosure () -> String, _ body: () -> Result) -> Result {
        retrying(call, detail(), count: 0) { _ in body() }
    }

    /// ``retrying(_:_:_:)`` of a read or write of `count` bytes, which a planned fault may shorten.
    @inline(__always)
    private static func retrying<Result: FixedWidthInteger>(
        _ call: Call, _ detail: @autoclosure () -> String, count: Int, _ body: (Int) -> Result
    ) -> Result {
        while true {
            #if RIZQ_FAULT_INJECTION
            var count = count
            switch SystemCallFaults.fault(for: call, detail()) {
            case .fail(let code)?:
                errno = code.rawValue
                if code == .interrupted { continue }
                return -1
            case .shorten(let most)?:
                count = min(count, most)
            case nil:
                break
            }
            #endif
            let result = body(count)
            if result != -1 || errno != EINTR { return result }
        }
    }
}

/// `flock(2)`, the function: inside ``SystemCalls`` the name is its own, and `Glibc.flock` is the struct.
@inline(__always)
private func lockFile(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }
