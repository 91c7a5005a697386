#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import RizqCore

/// The vault's file operations: folders 0700 and files 0600 whatever the umask, files created
/// with `O_EXCL` (never opened through a link an attacker planted), replaced atomically and
/// durably (temporary file, `fsync`, `rename`, `fsync` of the folder), read with a size bound.
enum PrivateFiles {
    /// The C library's words for the error number `code`.
    static func errnoText(_ code: Int32) -> String { Errno(rawValue: code).description }

    /// Makes `path` and any missing parent folders, each created 0700; the last one must be a
    /// real folder owned by this user, and is made 0700 if it had wider permissions.
    static func ensureFolder(_ path: String) throws(VaultError) {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/" {
            var info = stat()
            if lstat(current, &info) == 0 { break }
            let code = errno
            guard code == ENOENT else { throw .fileSystem(path: current, operation: "inspect the folder", reason: errnoText(code)) }
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw .fileSystem(path: folder, operation: "create the folder", reason: errnoText(errno))
            }
            // mkdir's mode passes through the umask; set it exactly.
            _ = chmod(folder, 0o700)
        }
        try checkOwnFolder(path)
    }

    /// `path` is a folder (not a link) owned by this user, with no group or other permissions.
    static func checkOwnFolder(_ path: String) throws(VaultError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .fileSystem(path: path, operation: "inspect the folder", reason: errnoText(errno)) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unsafeFolder(path: path, reason: "it is not a folder (a symbolic link or a file)") }
        guard info.st_uid == geteuid() else { throw .unsafeFolder(path: path, reason: "it belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))") }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw .fileSystem(path: path, operation: "make the folder private (0700)", reason: errnoText(errno))
        }
    }

    /// Whether `path` exists (without following a final link).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The bytes of `path`, or `nil` when it does not exist. A final symbolic link is refused
    /// unless `followLinks` (a user's key file may be one).
    static func read(_ path: String, limit: Int, followLinks: Bool = false) throws(VaultError) -> Data? {
        try readStamped(path, limit: limit, followLinks: followLinks)?.data
    }

    /// The bytes of `path` and the stamp of the file they were read from (`fstat` of the same
    /// descriptor, so the stamp describes these bytes even if the path is replaced meanwhile),
    /// or `nil` when it does not exist.
    static func readStamped(_ path: String, limit: Int, followLinks: Bool = false) throws(VaultError) -> (data: Data, stamp: FileStamp)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw .fileSystem(path: path, operation: "open", reason: errnoText(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileSystem(path: path, operation: "inspect", reason: errnoText(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .fileSystem(path: path, operation: "read", reason: "it is not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else { throw .fileSystem(path: path, operation: "read", reason: "it is \(size) bytes, more than the \(limit) a vault file may be") }
        let data: Data
        do throws(Errno) {
            data = Data(try DescriptorIO.readToEnd(fd, sizeHint: size, limit: limit))
        } catch {
            let reason = error == .fileTooLarge ? "it grew past the \(limit) bytes a vault file may be while it was read" : error.description
            throw .fileSystem(path: path, operation: "read", reason: reason)
        }
        // Taken again after the read: a writer that changed the file in place while it was
        // read leaves a stamp that the next look will not match.
        guard fstat(fd, &info) == 0 else { throw .fileSystem(path: path, operation: "inspect", reason: errnoText(errno)) }
        return (data, FileStamp(info))
    }

    /// The stamp of `path` itself (a final link is not followed), or `nil` when it does not exist.
    static func stamp(of path: String) throws(VaultError) -> FileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw .fileSystem(path: path, operation: "inspect", reason: errnoText(code))
        }
        return FileStamp(info)
    }

    /// Writes `data` to a new file `path` (it must not exist), 0600, durably.
    static func createExclusive(_ path: String, data: Data) throws(VaultError) {
        close(try writeNewFile(path, data))
        try syncFolder(of: path)
    }

    /// Replaces `path` with `data` atomically: a reader, or a crash at any moment, sees the old
    /// file or the new one. The temporary file is `.<name>.tmp-<pid>-<random>` in the same folder.
    /// Returns the stamp of the new file after the rename (which changes its ctime), taken on
    /// its own descriptor: it describes `data` even if someone replaced `path` since.
    @discardableResult
    static func replace(_ path: String, with data: Data) throws(VaultError) -> FileStamp {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = folder + "/" + temporaryPrefix(for: name) + "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = try writeNewFile(temporary, data)
        defer { close(fd) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .fileSystem(path: path, operation: "replace", reason: errnoText(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileSystem(path: path, operation: "inspect", reason: errnoText(errno)) }
        try syncFolder(of: path)
        return FileStamp(info)
    }

    static func temporaryPrefix(for name: String) -> String { "." + name + ".tmp-" }

    /// Removes temporary files a killed writer left behind. Only called under the vault's lock,
    /// when no other writer can be between creating and renaming one.
    static func removeStaleTemporaries(in folder: String, for name: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let prefix = temporaryPrefix(for: name)
        for entry in entries where entry.hasPrefix(prefix) {
            unlink(folder + "/" + entry)
        }
    }

    /// Removes `path`, then makes the removal durable; `false` when it was not there.
    @discardableResult
    static func remove(_ path: String) throws(VaultError) -> Bool {
        if unlink(path) != 0 {
            let code = errno
            if code == ENOENT { return false }
            throw .fileSystem(path: path, operation: "remove", reason: errnoText(code))
        }
        try syncFolder(of: path)
        return true
    }

    /// Renames `from` to `to` (which must not exist) durably.
    static func move(_ from: String, to: String) throws(VaultError) {
        guard !exists(to) else { throw .fileSystem(path: to, operation: "move a file to", reason: "it already exists") }
        guard rename(from, to) == 0 else { throw .fileSystem(path: from, operation: "move", reason: errnoText(errno)) }
        try syncFolder(of: to)
    }

    /// Creates `path` (`O_EXCL`: never through a link someone planted), 0600 whatever the umask,
    /// writes `data` and flushes it; on any failure the file is removed. Returns the open
    /// descriptor (the caller closes it).
    private static func writeNewFile(_ path: String, _ data: Data) throws(VaultError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .fileSystem(path: path, operation: "create", reason: errnoText(errno)) }
        do throws(VaultError) {
            // The mode passed to open is masked by the umask; 0600 exactly whatever it is.
            guard fchmod(fd, 0o600) == 0 else { throw .fileSystem(path: path, operation: "set the mode of", reason: errnoText(errno)) }
            do throws(Errno) {
                try DescriptorIO.writeAll(data, to: fd)
            } catch {
                throw .fileSystem(path: path, operation: "write", reason: error.description)
            }
            guard fsync(fd) == 0 else { throw .fileSystem(path: path, operation: "flush (fsync)", reason: errnoText(errno)) }
            return fd
        } catch {
            unlink(path)
            close(fd)
            throw error
        }
    }

    /// fsync of the folder holding `path`, so that a rename or a new name survives a crash.
    static func syncFolder(of path: String) throws(VaultError) {
        let folder = (path as NSString).deletingLastPathComponent
        do throws(Errno) {
            try DescriptorIO.syncFolder(folder)
        } catch {
            throw .fileSystem(path: folder, operation: "flush (fsync) the folder", reason: error.description)
        }
    }

    /// The device of the file system holding `path` (or of its nearest existing parent).
    static func device(of path: String) -> UInt64? {
        var current = path
        while !current.isEmpty {
            var info = stat()
            if stat(current, &info) == 0 { return UInt64(info.st_dev) }
            if current == "/" { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
        return nil
    }
}
