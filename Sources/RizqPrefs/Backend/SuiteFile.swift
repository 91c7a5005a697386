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
        /// The file's parsed top-level object, the bytes it was parsed from, the schema version
        /// it records (``SchemaVersionMember``; `nil`: none), and when its keys were last changed.
        case entries(SuiteTable, FileStamp, bytes: [UInt8], schemaVersion: Int?, times: ChangeTimes)
        /// The file is not JSON, or its root is not an object.
        case damaged(reason: String, FileStamp)
    }

    let location: SuiteLocation

    /// The largest suite file read or written: 256 MiB. A suite is a file of preferences read
    /// whole into memory; a larger one (or a sparse file claiming terabytes) is refused with an
    /// error instead of exhausting memory.
    static let sizeLimit = 256 << 20

    private var lockPath: String { location.directory + "/." + location.suiteName + ".lock" }
    private var temporaryPrefix: String { "." + location.suiteName + ".json.tmp-" }

    // MARK: Reading

    /// The current stamp of the file, or `nil` when there is none. A symbolic link is stamped
    /// as itself, not as what it points to: it is never read through (``read()``).
    func stamp() throws(SuiteStoreError) -> FileStamp? {
        var info = stat()
        guard lstat(location.path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .unreadable(path: location.path, reason: Self.message(code))
        }
        return FileStamp(info)
    }

    /// Reads and parses the file. Only a regular file is read, never through a symbolic link
    /// (of the file or of its folder), and never one over ``sizeLimit``.
    func read() throws(SuiteStoreError) -> Contents {
        if let problem = folderProblem() { throw .unreadable(path: location.path, reason: problem) }
        guard let (bytes, info, times) = try Self.readRegularFile(location.path) else { return .missing }
        let stamp = FileStamp(info)
        do {
            switch try JSONReader.parseSuiteFile(bytes) {
            case .object(let entries, let schemaVersion):
                return .entries(entries, stamp, bytes: bytes, schemaVersion: schemaVersion, times: times ?? .unrecorded(modifiedAt: stamp.modifiedTime))
            case .notAnObject(let kind):
                return .damaged(reason: "its top level is \(kind == "array" ? "an array" : "a \(kind)"), not an object", stamp)
            }
        } catch {
            return .damaged(reason: "it is not valid JSON (\(error))", stamp)
        }
    }

    /// The bytes of the regular file at `path`, its status and its ``ChangeTimes`` record;
    /// `nil` when there is no file. The open does not block (a FIFO or a device at the path
    /// would hang a plain open or read) and does not follow a symbolic link; anything but a
    /// regular file of at most ``sizeLimit`` bytes is refused, saying what it is and what to do.
    static func readRegularFile(_ path: String) throws(SuiteStoreError) -> (bytes: [UInt8], info: stat, times: ChangeTimes?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw .unreadable(path: path, reason: "it is a symbolic link (to \(linkTarget(path))), and suite files are never read or written through links, so that no file elsewhere is touched; replace the link by the file itself (cp --remove-destination \"$(readlink -f '\(path)')\" '\(path)')")
            }
            throw .unreadable(path: path, reason: message(code))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: message(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: path, reason: "it is \(kindName(info.st_mode)), not a regular file, so it is not read; move it away (mv '\(path)' '\(path).moved') and the suite starts afresh")
        }
        guard Int64(info.st_size) <= Int64(sizeLimit) else {
            throw .unreadable(path: path, reason: tooLarge(Int64(info.st_size)) + "; move it away (mv '\(path)' '\(path).moved'), and keep large data in files of your own")
        }
        let bytes: [UInt8]
        do {
            bytes = try readAll(descriptor, sizeHint: Int(info.st_size))
        } catch {
            throw .unreadable(path: path, reason: error.code == .EFBIG ? tooLarge(Int64(sizeLimit) + 1) : message(error.code))
        }
        let times = LinuxFileCalls.attribute(ChangeTimes.attributeName, of: descriptor).flatMap { ChangeTimes(encoded: $0) }
        return (bytes, info, times)
    }

    /// "it is N MiB, over …" for messages.
    static func tooLarge(_ size: Int64) -> String {
        "it is \(size >> 20) MiB, over the \(sizeLimit >> 20) MiB a suite file may hold"
    }

    private static func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "somewhere" }
        return "'" + String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) + "'"
    }

    /// Why the suite's folder cannot be used (a symbolic link, or not a folder); `nil` when it
    /// can, or is not there yet. Only its last component is judged: the folder is RizqPrefs'
    /// own (`groups`, `apps/<app id>`), while the root above may well be a link the user made.
    func folderProblem() -> String? {
        let folder = location.directory
        var info = stat()
        guard lstat(folder, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            return nil
        case S_IFLNK:
            return "its folder \(folder) is a symbolic link (to \(Self.linkTarget(folder))), and suite files are never read or written through links, so that no file elsewhere is touched; replace the link by a real folder (rm '\(folder)' && mkdir -m 700 '\(folder)', then move the files back in)"
        default:
            return "its folder \(folder) is \(Self.kindName(info.st_mode)), not a folder; move it away (mv '\(folder)' '\(folder).moved')"
        }
    }

    /// The ``ChangeTimes`` record of the file at the path now (read under the lock, before a
    /// write replaces it); unrecorded when it has none.
    func changeTimes() throws(SuiteStoreError) -> ChangeTimes {
        guard let stamp = try stamp() else { return ChangeTimes(floor: 0, keys: [:]) }
        return LinuxFileCalls.attribute(ChangeTimes.attributeName, atPath: location.path).flatMap { ChangeTimes(encoded: $0) }
            ?? .unrecorded(modifiedAt: stamp.modifiedTime)
    }

    // MARK: Writing

    /// What ``replace(bytes:over:_:)`` did.
    enum Replacement {
        /// The bytes are the file now, at this stamp.
        case replaced(FileStamp)
        /// Nothing was written: the lock file was removed or replaced while the lock was held,
        /// so another writer may be inside its write. Take the lock again (``retake(_:)``), then
        /// start the write over from the file as it is then.
        case lockLost
        /// Nothing was written: the file at the path is not the version the bytes were made
        /// over (a program that does not take the lock replaced or edited it). Start the write
        /// over from the file as it is now.
        case fileChanged
    }

    /// Replaces the file, which is now the version `expected` (`nil`: there is none), with
    /// exactly `bytes`, crash-safely: a temporary file in the same folder, fsync, an atomic swap
    /// with the suite file, fsync of the folder. A reader sees the old file or the new one, whole.
    ///
    /// The bytes were made from `expected`, so they go in only over that version: the lock is
    /// checked to still be the file at the lock path (a writer that took a new lock file after
    /// ours was removed would not wait for us), and the swap (`RENAME_EXCHANGE`) shows which
    /// file it displaced — if that is not `expected`, it is swapped back at once and nothing
    /// is written. Where the file system cannot swap, the file is checked just before a plain
    /// rename instead.
    func replace(bytes: [UInt8], times: ChangeTimes? = nil, over expected: FileStamp?, _ lock: borrowing Lock) throws(SuiteStoreError) -> Replacement {
        try replace(bytes: bytes, times: times, over: expected, holding: lock.held)
    }

    /// ``replace(bytes:times:over:_:)`` for a closure that cannot capture the ``Lock`` itself
    /// (a schema migration's writer): `held` is ``heldLock(_:)`` of a lock held meanwhile.
    func replace(bytes: [UInt8], times: ChangeTimes? = nil, over expected: FileStamp?, holding held: HeldLock) throws(SuiteStoreError) -> Replacement {
        guard bytes.count <= Self.sizeLimit else {
            throw .writeFailed(path: location.path, reason: "the suite would be \(bytes.count >> 20) MiB, over the \(Self.sizeLimit >> 20) MiB a suite file may hold; remove or shrink large values (keep large data in files of your own)")
        }
        try ensureDirectory()
        let temporary = location.directory + "/" + temporaryPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: location.path, reason: Self.writeReason(errno)) }
        var keep = false
        defer {
            if !keep { unlink(temporary) }
        }
        let written: FileStamp
        do {
            defer { close(descriptor) }
            _ = fchmod(descriptor, 0o600)
            try Self.writeAll(descriptor, bytes)
            // Best effort: where the file system keeps no user attributes, conflicts fall back to
            // the file's modification time.
            if let times { LinuxFileCalls.setAttribute(ChangeTimes.attributeName, to: times.encoded, of: descriptor) }
            guard fsync(descriptor) == 0 else { throw POSIXError.code(errno) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw POSIXError.code(errno) }
            written = FileStamp(info)
        } catch {
            throw .writeFailed(path: location.path, reason: Self.writeReason(error.code.rawValue))
        }
        guard isAtLockPath(held) else { return .lockLost }
        let outcome = try install(temporary, written, over: expected)
        if case .replaced = outcome {
            keep = true
            syncDirectory()
        }
        return outcome
    }

    /// Puts the written temporary file (`written`) at the suite's path if the file there is
    /// `expected`. The temporary file is gone afterwards when it was installed.
    private func install(_ temporary: String, _ written: FileStamp, over expected: FileStamp?) throws(SuiteStoreError) -> Replacement {
        let path = location.path
        guard let expected else {
            let code = LinuxFileCalls.renameNoReplace(temporary, path)
            if code == 0 { return .replaced(written) }
            if code == EEXIST { return .fileChanged }
            guard LinuxFileCalls.isUnsupported(code) else { throw .writeFailed(path: path, reason: Self.writeReason(code)) }
            return try renameChecked(temporary, written, over: nil)
        }
        let code = LinuxFileCalls.exchange(temporary, path)
        if code == ENOENT { return .fileChanged }
        if LinuxFileCalls.isUnsupported(code) { return try renameChecked(temporary, written, over: expected) }
        guard code == 0 else { throw .writeFailed(path: path, reason: Self.writeReason(code)) }
        // The temporary name now holds what was displaced.
        if Self.stamp(of: temporary) == expected {
            unlink(temporary)
            return .replaced(written)
        }
        // Another program replaced the file since it was read: its version goes back.
        let back = LinuxFileCalls.exchange(temporary, path)
        if back == 0, Self.stamp(of: temporary) == written {
            return .fileChanged
        }
        throw .writeFailed(
            path: path,
            reason: "another program replaced the file during this write, and its version could not be put back; it is \(temporary): look at it and move it back by hand if it is the one to keep")
    }

    /// The fallback where `renameat2` is missing: check, then rename (a program that does not
    /// take the lock can still slip in between).
    private func renameChecked(_ temporary: String, _ written: FileStamp, over expected: FileStamp?) throws(SuiteStoreError) -> Replacement {
        guard try stamp() == expected else { return .fileChanged }
        guard rename(temporary, location.path) == 0 else { throw .writeFailed(path: location.path, reason: Self.writeReason(errno)) }
        return .replaced(written)
    }

    /// The stamp of whatever is at `path` (not followed if a link); `nil` when nothing is.
    private static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStamp(info) : nil
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

    /// Creates the suite's folder (and its parents) with mode 0700 when missing; refuses a
    /// folder that is a symbolic link (``folderProblem()``).
    func ensureDirectory() throws(SuiteStoreError) {
        if let problem = folderProblem() { throw .writeFailed(path: location.path, reason: problem) }
        var partial = ""
        for component in location.directory.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 {
                let code = errno
                if code == EEXIST { continue }
                throw .writeFailed(path: location.path, reason: "cannot create folder \(partial): \(Self.writeReason(code))")
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
        fileprivate let held: HeldLock
    }

    /// The lock file's descriptor that the `flock` is on, and which file that is. A class, so
    /// that ``retake(_:)`` can move a borrowed ``Lock`` to a new lock file; used by one thread
    /// at a time (the body of ``withLock(_:)``).
    final class HeldLock: @unchecked Sendable {
        var descriptor: Int32
        var file: (device: UInt64, inode: UInt64)

        init(descriptor: Int32, file: (device: UInt64, inode: UInt64)) {
            self.descriptor = descriptor
            self.file = file
        }

        func release() {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Holds the suite's advisory lock (`flock` on a hidden `.<suite>.lock` beside the file)
    /// while `body` runs, so that writers in other processes take turns.
    ///
    /// A lock on a file that is no longer at the lock path excludes nobody (a `*.lock` cleanup
    /// removed it, and the next writer made a new one), so the lock is taken on a descriptor
    /// checked, after `flock` returns, to still be the file at the path; if it is not, it is taken
    /// again on the file there now. The lock file is never opened through a symbolic link.
    func withLock<T>(_ body: (borrowing Lock) throws(SuiteStoreError) -> T) throws(SuiteStoreError) -> T {
        try ensureDirectory()
        let lock = Lock(held: try takeLock())
        defer { lock.held.release() }
        return try body(lock)
    }

    /// The lock's descriptor and file, to hand to ``replace(bytes:times:over:holding:)`` where a
    /// closure cannot capture the lock.
    func heldLock(_ lock: borrowing Lock) -> HeldLock {
        lock.held
    }

    /// Whether `lock` is still on the file at the lock path (it was not removed or replaced
    /// since it was taken).
    func holds(_ lock: borrowing Lock) -> Bool {
        isAtLockPath(lock.held)
    }

    private func isAtLockPath(_ held: HeldLock) -> Bool {
        var info = stat()
        guard lstat(lockPath, &info) == 0 else { return false }
        return UInt64(info.st_dev) == held.file.device && UInt64(info.st_ino) == held.file.inode
    }

    /// Takes the lock again, on the file at the lock path now, after ``holds(_:)`` found it gone:
    /// waits for whoever holds that one.
    func retake(_ lock: borrowing Lock) throws(SuiteStoreError) {
        lock.held.release()
        let fresh = try takeLock()
        lock.held.descriptor = fresh.descriptor
        lock.held.file = fresh.file
    }

    private func takeLock() throws(SuiteStoreError) -> HeldLock {
        // Each round needs the lock file to be removed or replaced between our open and our
        // check; a bound only against a program that does so without end.
        for _ in 0..<10_000 {
            // Read-only is enough for flock, and lets an existing lock file open on a read-only
            // mount (the write then fails, saying why, when it creates its temporary file).
            let descriptor = open(lockPath, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
            guard descriptor >= 0 else { throw lockError(errno) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let code = errno
                close(descriptor)
                throw lockError(code)
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                throw .writeFailed(
                    path: location.path,
                    reason: "its lock file \(lockPath) is not a regular file (\(Self.kindName(info.st_mode))); remove it (rm '\(lockPath)') and try again")
            }
            while flock(descriptor, LOCK_EX) != 0 {
                let code = errno
                if code == EINTR { continue }
                close(descriptor)
                throw .writeFailed(path: location.path, reason: "cannot lock \(lockPath): \(Self.message(code))")
            }
            let held = HeldLock(descriptor: descriptor, file: (UInt64(info.st_dev), UInt64(info.st_ino)))
            if isAtLockPath(held) { return held }
            // Removed or replaced while we waited: whoever holds the file there now excludes us.
            held.release()
        }
        throw .writeFailed(path: location.path, reason: "its lock file \(lockPath) keeps being removed or replaced; stop the program that does it")
    }

    private func lockError(_ code: Int32) -> SuiteStoreError {
        if code == ELOOP {
            return .writeFailed(
                path: location.path,
                reason: "its lock file \(lockPath) is a symbolic link, and suite files are never written through links; remove the link (rm '\(lockPath)') and try again")
        }
        return .writeFailed(path: location.path, reason: "cannot open lock file \(lockPath): \(Self.writeReason(code))")
    }

    /// What kind of file a mode says, for messages: "a FIFO (named pipe)", "a folder", ….
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
        // Not zeroed first: read(2) writes the bytes, and what it did not write is cut off below
        // unread (zeroing a 2.2 MB file's buffer was a tenth of the instructions of opening it).
        let firstCapacity = min(max(sizeHint, 0), sizeLimit) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: firstCapacity) { _, initialized in initialized = firstCapacity }
        var count = 0
        while true {
            // A file that grows while it is read stops at the limit.
            if count > sizeLimit { throw POSIXError.code(EFBIG) }
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(max(4096, bytes.count), sizeLimit + 1))) }
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

    /// Why a write failed, in words that point at the fix.
    static func writeReason(_ code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT:
            return "the disk is full (\(message(code))); free space on it"
        case EROFS:
            return "the file system is read-only (\(message(code))); remount it read-write, or set RIZQ_PREFS_HOME to a writable folder"
        case EPERM:
            return "the folder or file is immutable or not yours (\(message(code))); lsattr and chattr -i it, or chown it to yourself"
        case EFBIG:
            return "the file is too large for this file system (\(message(code))); remove large values"
        default:
            return message(code)
        }
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
