#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error number from a system call, in the manner of swift-system's `Errno`: a typed value
/// with a name for each code this package acts on, and the C library's words for all of them.
///
/// ```swift
/// let count = try Errno.retryingOnInterrupt { read(descriptor, buffer, size) }
/// ```
package struct Errno: Error, Equatable, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The C value of `errno`.
    package let rawValue: Int32

    /// Wraps a C error number.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now.
    package static var current: Errno { Errno(rawValue: errno) }

    /// The C library's words for the code (`strerror`).
    package var description: String { String(cString: strerror(rawValue)) }

    /// A system call was interrupted by a signal before it did anything: call it again.
    package static let interrupted = Errno(rawValue: EINTR)
    /// No such file or folder.
    package static let noSuchFile = Errno(rawValue: ENOENT)
    /// A component of the path is not a folder.
    package static let notADirectory = Errno(rawValue: ENOTDIR)
    /// The file exists already.
    package static let fileExists = Errno(rawValue: EEXIST)
    /// Too many symbolic links: `O_NOFOLLOW` met one.
    package static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// Permission denied.
    package static let permissionDenied = Errno(rawValue: EACCES)
    /// Operation not permitted (also what a seccomp filter answers).
    package static let notPermitted = Errno(rawValue: EPERM)
    /// No space left on the device.
    package static let noSpace = Errno(rawValue: ENOSPC)
    /// The disk quota is exceeded.
    package static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// The file system is read-only.
    package static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// The file is too large.
    package static let fileTooLarge = Errno(rawValue: EFBIG)
    /// The operation would block.
    package static let wouldBlock = Errno(rawValue: EAGAIN)
    /// The call is not implemented by this kernel or file system.
    package static let notImplemented = Errno(rawValue: ENOSYS)
    /// The operation is not supported here.
    package static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// No such process.
    package static let noSuchProcess = Errno(rawValue: ESRCH)
    /// The other end of a pipe is gone.
    package static let brokenPipe = Errno(rawValue: EPIPE)
    /// An input or output error.
    package static let ioError = Errno(rawValue: EIO)

    /// Runs `call` — a system call that returns `-1` and sets `errno` on failure — again for as
    /// long as a signal interrupts it; returns its result, or throws its error.
    @inline(__always)
    package static func retryingOnInterrupt<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = Errno.current
            if code != .interrupted { throw code }
        }
    }
}
