import Foundation
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
}

/// The suite file on disk: reading, the crash-safe replace, the advisory lock between
/// processes, and quarantine of a damaged file. Plain POSIX calls, so that every step's failure
/// is seen and named.
struct SuiteFile: Sendable {
    /// What reading the file found.
    enum Contents {
        /// No file yet: an empty suite.
        case missing
        /// The file's parsed top-level object, the bytes it was parsed from, and the schema
        /// version it records (``SchemaVersionMember``; `nil`: none).
        case entries(SuiteTable, FileStamp, bytes: [UInt8], schemaVersion: Int?)
        /// The file is not JSON, or its root is not an object.
        case damaged(reason: String, FileStamp)
    }

    let location: SuiteLocation

    private var lockPath: String { location.directory + "/." + location.suiteName + ".lock" }
    private var temporaryPrefix: String { "." + location.suiteName + ".json.tmp-" }

    // MARK: Reading

    /// The current stamp of the file, or `nil` when there is none.
    func stamp() throws(SuiteStoreError) -> FileStamp? {
        var info = stat()
        guard stat(location.path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .unreadable(path: location.path, reason: Self.message(code))
        }
        return FileStamp(info)
    }

    /// Reads and parses the file.
    func read() throws(SuiteStoreError) -> Contents {
        let descriptor = open(location.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return .missing }
            throw .unreadable(path: location.path, reason: Self.message(code))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: location.path, reason: Self.message(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: location.path, reason: "it is not a regular file")
        }
        let stamp = FileStamp(info)
        let bytes: [UInt8]
        do {
            bytes = try Self.readAll(descriptor, sizeHint: Int(info.st_size))
        } catch {
            throw .unreadable(path: location.path, reason: Self.message(error.code))
        }
        do {
            switch try JSONReader.parseSuiteFile(bytes) {
            case .object(let entries, let schemaVersion):
                return .entries(entries, stamp, bytes: bytes, schemaVersion: schemaVersion)
            case .notAnObject(let kind):
                return .damaged(reason: "its top level is \(kind == "array" ? "an array" : "a \(kind)"), not an object", stamp)
            }
        } catch {
            return .damaged(reason: "it is not valid JSON (\(error))", stamp)
        }
    }

    // MARK: Writing

    /// Replaces the file with exactly `bytes`, crash-safely: a temporary file in the same folder,
    /// fsync, rename over the suite file, fsync of the folder. A reader sees the old file or the
    /// new one, whole.
    /// - Returns: the stamp of the new file.
    func replace(bytes: [UInt8]) throws(SuiteStoreError) -> FileStamp {
        try ensureDirectory()
        let temporary = location.directory + "/" + temporaryPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: location.path, reason: Self.message(errno)) }
        var keep = false
        defer {
            if !keep { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            _ = fchmod(descriptor, 0o600)
            try Self.writeAll(descriptor, bytes)
            guard fsync(descriptor) == 0 else { throw POSIXError.code(errno) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw POSIXError.code(errno) }
            guard rename(temporary, location.path) == 0 else { throw POSIXError.code(errno) }
            keep = true
            syncDirectory()
            return FileStamp(info)
        } catch {
            throw .writeFailed(path: location.path, reason: Self.message(error.code))
        }
    }

    /// Removes the file (a suite that had no file goes back to having none); the folder is
    /// fsynced so that the removal is durable.
    func remove() throws(SuiteStoreError) {
        guard unlink(location.path) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw .writeFailed(path: location.path, reason: Self.message(code))
        }
        syncDirectory()
    }

    /// Creates the suite's folder (and its parents) with mode 0700 when missing.
    func ensureDirectory() throws(SuiteStoreError) {
        var partial = ""
        for component in location.directory.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 {
                let code = errno
                if code == EEXIST { continue }
                throw .writeFailed(path: location.path, reason: "cannot create folder \(partial): \(Self.message(code))")
            }
        }
    }

    private func syncDirectory() {
        let descriptor = open(location.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    // MARK: Locking

    /// Proof that the suite's file lock is held: only ``withLock(_:)`` makes one, for its body.
    /// What must run under the lock takes it as an argument, so that holding the lock is a
    /// matter of types, not of a flag (a second `flock` from this process would wait for
    /// itself).
    struct Lock: ~Copyable {
        fileprivate init() {}
    }

    /// Holds the suite's advisory lock (`flock` on a hidden `.<suite>.lock` beside the file)
    /// while `body` runs, so that writers in other processes take turns.
    func withLock<T>(_ body: (borrowing Lock) throws(SuiteStoreError) -> T) throws(SuiteStoreError) -> T {
        try ensureDirectory()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: location.path, reason: "cannot open lock file \(lockPath): \(Self.message(errno))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw .writeFailed(path: location.path, reason: "cannot lock \(lockPath): \(Self.message(code))")
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        let lock = Lock()
        return try body(lock)
    }

    // MARK: Damage

    /// Moves a damaged file aside as `<suite>.corrupt-<timestamp>.json`, byte for byte, and
    /// returns the new path. Only moves the file if it is still the version that was found
    /// damaged (`stamp`).
    func quarantine(expecting stamp: FileStamp, _ lock: borrowing Lock) throws(SuiteStoreError) -> String? {
        guard try self.stamp() == stamp else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = location.directory + "/" + location.suiteName + ".corrupt-" + formatter.string(from: Date())
        var target = base + ".json"
        var attempt = 1
        while access(target, F_OK) == 0 {
            attempt += 1
            target = base + "-\(attempt).json"
        }
        guard rename(location.path, target) == 0 else {
            throw .writeFailed(path: location.path, reason: "cannot move the damaged file aside: \(Self.message(errno))")
        }
        syncDirectory()
        return target
    }

    /// Removes temporary files that writers killed mid-write left behind (their process is gone).
    func removeStaleTemporaries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: location.directory) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) {
            let rest = name.dropFirst(temporaryPrefix.count)
            guard let pidText = rest.split(separator: "-").first, let pid = pid_t(pidText) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink(location.directory + "/" + name)
            }
        }
    }

    // MARK: POSIX helpers

    private static func readAll(_ descriptor: Int32, sizeHint: Int) throws(POSIXError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count))) }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw POSIXError.code(errno)
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(POSIXError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw POSIXError.code(errno)
            }
            written += result
        }
    }

    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func message(_ code: POSIXErrorCode) -> String {
        message(code.rawValue)
    }
}

extension POSIXError {
    static func code(_ value: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: value) ?? .EIO)
    }
}

extension Error {
    fileprivate var code: POSIXErrorCode {
        (self as? POSIXError)?.code ?? .EIO
    }
}
