#if canImport(Glibc)
import Glibc
#endif

/// A file of this package's, opened only once it is known to be what it should be: the one door
/// through which suites, the vault, its key slots and config, credential folders, fleet caches,
/// device-sync files and journals are read.
///
/// The open never blocks and never follows a final link unless the rule says so
/// (`O_NONBLOCK | O_NOFOLLOW`: a FIFO or a device at the path would hang a plain open or read);
/// the open descriptor is then judged by its ``FileTrust`` (kind, owner, mode) and its size,
/// before a byte is read. The same checks run whether the caller reads or is about to write.
///
/// ```swift
/// guard let file = try PrivateFile.open(path, trust: .secret("key file")) else { return nil }
/// let bytes = try file.readAll(limit: 4096)
/// ```
package struct PrivateFile: ~Copyable {
    /// The open descriptor (read-only, close-on-exec); closed when the value ends.
    package let descriptor: Int32
    /// The path it was opened at.
    package let path: String
    /// What `fstat` said of it when it was opened.
    package let info: stat
    /// The rule it was judged by.
    package let trust: FileTrust

    init(descriptor: Int32, path: String, info: stat, trust: FileTrust) {
        self.descriptor = descriptor
        self.path = path
        self.info = info
        self.trust = trust
    }

    deinit { close(descriptor) }

    /// What `fstat` says of `descriptor`, just opened at `path`; when it says nothing, the
    /// descriptor is closed and the error names `operation` and `subject` (the errno read
    /// before the close can change it). The file layer's one `fstat` of a new descriptor.
    package static func status(ofOpened descriptor: Int32, path: String, _ operation: FileError.Operation, subject: String) throws(FileError) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = FileError.current(path, operation, subject: subject)
            close(descriptor)
            throw error
        }
        return info
    }

    /// Opens `path` for reading once `trust` accepts it; `nil` when nothing is there.
    /// - Throws: ``FileError`` naming the check that failed: a link where none is followed, a
    ///   FIFO or device, another user's file, a mode that lets others write (or read) it.
    package static func open(_ path: String, trust: FileTrust) throws(FileError) -> PrivateFile? {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (trust.followsLinks ? 0 : O_NOFOLLOW)
        let descriptor = SystemCalls.open(path, flags)
        guard descriptor >= 0 else {
            let code = Errno.current
            if code == .noSuchFile || code == .notADirectory { return nil }
            if code == .tooManySymbolicLinks, !trust.followsLinks {
                throw FileError(path: path, operation: .read, problem: .symbolicLink(target: FileWords.linkTarget(path)), subject: trust.subject)
            }
            throw FileError(path: path, operation: .read, problem: .system(code), subject: trust.subject)
        }
        let info = try status(ofOpened: descriptor, path: path, .read, subject: trust.subject)
        do throws(FileError) {
            try trust.check(info, path: path, operation: .read)
            if let problem = trust.placeProblem(path: path, descriptor: descriptor, info: info) {
                throw FileError(path: path, operation: .read, problem: problem, subject: trust.subject)
            }
        } catch {
            close(descriptor)
            throw error
        }
        return PrivateFile(descriptor: descriptor, path: path, info: info, trust: trust)
    }

    /// The file's version when it was opened.
    package var stamp: FileStamp { FileStamp(info) }

    /// Every byte of the file, at most `limit` of them.
    /// - Throws: ``FileError/Problem/tooLarge(size:limit:)`` when the file is (or grows while it
    ///   is read) larger; the read's error.
    package func readAll(limit: Int) throws(FileError) -> [UInt8] {
        guard Int64(info.st_size) <= Int64(limit) else {
            throw FileError(path: path, operation: .read, problem: .tooLarge(size: Int64(info.st_size), limit: limit), subject: trust.subject)
        }
        do {
            return try DescriptorIO.readToEnd(descriptor, sizeHint: Int(info.st_size), limit: limit)
        } catch {
            let problem: FileError.Problem = error == .fileTooLarge ? .tooLarge(size: Int64(limit) + 1, limit: limit) : .system(error)
            throw FileError(path: path, operation: .read, problem: problem, subject: trust.subject)
        }
    }

    /// The file's version now (after a read: a writer that changed it in place meanwhile leaves
    /// a stamp the next look will not match).
    package func currentStamp() throws(FileError) -> FileStamp {
        var now = stat()
        guard fstat(descriptor, &now) == 0 else { throw FileError.current(path, .read, subject: trust.subject) }
        return FileStamp(now)
    }

    /// The bytes and version of the file at `path`, at most `limit` bytes, once `trust` accepts
    /// it; `nil` when nothing is there. The stamp is taken after the read, on the same
    /// descriptor: it describes these bytes even if the path is replaced meanwhile.
    package static func read(_ path: String, trust: FileTrust, limit: Int) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)? {
        guard let file = try open(path, trust: trust) else { return nil }
        let bytes = try file.readAll(limit: limit)
        return (bytes, try file.currentStamp())
    }
}
