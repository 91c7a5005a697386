#if canImport(Glibc)
import Glibc
#endif

/// The one append of the file layer (a suite's change log, a journal line): to a file made here
/// (`O_EXCL`), or to one found there only once it is what it should be — opened without
/// following a link and without blocking (a FIFO is refused at once instead of hanging the
/// writer until someone reads it), a regular file, one link only (a hard link would make the
/// append land in another file, a root process's in `/etc/shadow`), judged by its ``FileTrust``,
/// no larger than the caller reads back. Only a file this process made is given to another
/// owner (a root process writing a user's suite keeps it the user's).
package enum FileAppend {
    /// Appends `bytes` to `path` (see the type's documentation). `owner`: who a file made here
    /// is given to, for a root process. `sizeLimit`: the most the file may hold after the append.
    /// - Throws: ``FileError`` naming what was found, or the write's error.
    package static func append(_ bytes: [UInt8], to path: String, trust: FileTrust, owner: FileOwner? = nil, sizeLimit: Int) throws(FileError) {
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
        var created = true
        var descriptor = SystemCalls.open(path, flags | O_CREAT | O_EXCL, 0o600)
        if descriptor < 0, Errno.current == .fileExists {
            created = false
            descriptor = SystemCalls.open(path, flags)
        }
        guard descriptor >= 0 else {
            let code = Errno.current
            switch code {
            case .tooManySymbolicLinks:
                throw FileError(path: path, operation: .write, problem: .symbolicLink(target: FileWords.linkTarget(path)), subject: trust.subject)
            case Errno(rawValue: ENXIO):
                // A FIFO with no reader (O_NONBLOCK): refused, never waited on.
                throw FileError(path: path, operation: .write, problem: .wrongKind(found: "a FIFO (named pipe)", expected: "a regular file"), subject: trust.subject)
            default:
                throw FileError(path: path, operation: .write, problem: .system(code), subject: trust.subject)
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError.current(path, .write, subject: trust.subject) }
        try trust.check(info, path: path, operation: .write)
        guard info.st_nlink == 1 else {
            throw FileError(path: path, operation: .write, problem: .hardLinked(links: Int(info.st_nlink)), subject: trust.subject)
        }
        guard Int64(info.st_size) + Int64(bytes.count) <= Int64(sizeLimit) else {
            throw FileError(path: path, operation: .write, problem: .tooLarge(size: Int64(info.st_size) + Int64(bytes.count), limit: sizeLimit), subject: trust.subject)
        }
        if created, geteuid() == 0, let owner, owner.user != 0 || owner.group != 0 {
            _ = SystemCalls.fchown(descriptor, owner.user, owner.group)
        }
        do throws(Errno) {
            try DescriptorIO.writeAll(bytes, to: descriptor)
        } catch {
            throw FileError(path: path, operation: .write, problem: .system(error), subject: trust.subject)
        }
    }
}
