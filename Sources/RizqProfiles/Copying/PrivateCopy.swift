#if Secrets
import Foundation
import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// A private copy of a browser's storage files: a fresh folder that only this user can open
/// (`0700`, under `$TMPDIR`), removed by ``remove()``, since it holds tokens.
///
/// The profile is only ever opened for reading (with `O_NOATIME` where the kernel allows it),
/// so its bytes and modification times stay as they were. Libraries that open a database
/// write to it (LevelDB takes its `LOCK` and replays its log, SQLite rolls back a hot journal
/// or reads a write-ahead log through a `-shm` file); they do that to the copy. A browser that
/// is running may change the files while they are copied: a copy is taken again until the
/// files that are rewritten in place (LevelDB's `CURRENT` and `MANIFEST`, an SQLite database
/// and its journal) did not change during it; logs may grow meanwhile, since their readers
/// stop at the last complete record.
@_spi(Fuzzing) public final class PrivateCopy: @unchecked Sendable {
    /// The private folder.
    public let folder: String
    private var copies: [(copy: String, source: String)] = []
    private var removed = false

    /// How often a copy is retried while the browser keeps changing the files.
    static let attempts = 5

    /// Makes the private folder.
    /// - Throws: ``ProfileError/copyFailed(path:reason:)``.
    public init() throws(ProfileError) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("rizq-profile-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .copyFailed(path: base, reason: "cannot make a private folder there (\(String(cString: strerror(errno))))")
        }
        folder = String(cString: made)
        // mkdtemp makes it 0700 already; say so explicitly, whatever the umask.
        chmod(folder, 0o700)
    }

    deinit {
        remove()
    }

    /// Removes the private folder and everything in it.
    public func remove() {
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: Copying

    /// Copies the regular files directly inside `sourceFolder` (not its subfolders) into a new
    /// folder `name` of the copy, and returns that folder's path. `stable` says which files must
    /// not change while they are copied (else the copy is taken again); `skip` which are not
    /// copied at all.
    public func copyFolder(_ sourceFolder: String, as name: String, skip: (String) -> Bool = { _ in false }, stable: (String) -> Bool) throws(ProfileError) -> String {
        let target = folder + "/" + name
        try copyConsistently(from: sourceFolder, into: target, including: { !skip($0) }, stable: stable)
        copies.append((target, sourceFolder))
        return target
    }

    /// Copies an SQLite database with its `-wal` and `-journal` (when present) under the same
    /// file name into a new folder of the copy, and returns the copied database's path. A
    /// write-ahead log may grow meanwhile; the database and a rollback journal may not change.
    public func copySQLite(_ sourceFile: String) throws(ProfileError) -> String {
        let parent = (sourceFile as NSString).deletingLastPathComponent
        let sourceFolder = parent.isEmpty ? "." : parent
        let name = (sourceFile as NSString).lastPathComponent
        guard Self.isRegularFile(sourceFile) else { throw .notFound(path: sourceFile) }
        let target = folder + "/db-\(copies.count)"
        let companions = [name, name + "-wal", name + "-journal"]
        try copyConsistently(from: sourceFolder, into: target, including: { companions.contains($0) }, stable: { !$0.hasSuffix("-wal") })
        copies.append((target + "/" + name, sourceFile))
        return target + "/" + name
    }

    /// Copies the files of `sourceFolder` that `including` names into the new folder `target`,
    /// again (up to ``attempts`` times) until none vanished and the `stable` ones did not change
    /// while they were copied.
    private func copyConsistently(from sourceFolder: String, into target: String, including: (String) -> Bool, stable: (String) -> Bool) throws(ProfileError) {
        for _ in 0..<Self.attempts {
            try? FileManager.default.removeItem(atPath: target)
            guard mkdir(target, 0o700) == 0 else {
                throw .copyFailed(path: folder, reason: String(cString: strerror(errno)))
            }
            let before = try Self.listing(sourceFolder).filter { including($0.name) }
            var vanished = false
            for file in before {
                do {
                    try Self.copyFile(sourceFolder + "/" + file.name, to: target + "/" + file.name)
                } catch CopyFailure.vanished {
                    vanished = true
                    break
                } catch CopyFailure.denied {
                    throw .unreadable(path: sourceFolder + "/" + file.name, reason: "permission denied")
                } catch {
                    throw .copyFailed(path: sourceFolder + "/" + file.name, reason: "\(error)")
                }
            }
            let after = try Self.listing(sourceFolder).filter { including($0.name) }
            if !vanished, Self.unchanged(before, after, stable: stable) { return }
        }
        throw .copyFailed(path: sourceFolder, reason: "its files kept changing while they were copied (is the browser writing to it?); close the browser and try again")
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The profile path of a path inside the copy (for messages), or the path itself.
    public func sourcePath(of path: String) -> String {
        for (copy, source) in copies.reversed() where path == copy || path.hasPrefix(copy + "/") {
            return source + path.dropFirst(copy.count)
        }
        return path
    }

    /// `message` with every path inside the copy replaced by the profile's path, so that a
    /// library's error names the user's file.
    public func sourceText(_ message: String) -> String {
        var text = message
        for (copy, source) in copies.sorted(by: { $0.copy.count > $1.copy.count }) {
            text = text.replacingOccurrences(of: copy, with: source)
        }
        return text
    }

    // MARK: Files

    struct FileState: Equatable {
        var name: String
        var size: Int64
        var modified: Int64
        var inode: UInt64
    }

    enum CopyFailure: Error, CustomStringConvertible {
        /// The file was removed (a compaction or checkpoint) while the folder was copied.
        case vanished
        /// The user may not read the file.
        case denied
        case failed(String)

        var description: String {
            switch self {
            case .vanished: return "the file disappeared while it was copied"
            case .denied: return "permission denied"
            case .failed(let reason): return reason
            }
        }
    }

    /// The regular files of `folder` with their size, modification time and inode.
    static func listing(_ folder: String) throws(ProfileError) -> [FileState] {
        guard let directory = opendir(folder) else {
            let reason = String(cString: strerror(errno))
            if errno == ENOENT { throw .notFound(path: folder) }
            throw .unreadable(path: folder, reason: reason)
        }
        defer { closedir(directory) }
        var files: [FileState] = []
        while let entry = readdir(directory) {
            // Storage files have ASCII names; another name cannot be lstat'ed below and is left out.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files.append(FileState(
                name: name, size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                inode: UInt64(info.st_ino)))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Whether the files were not changed while they were copied: the same files, the stable
    /// ones unchanged, the others at most grown.
    static func unchanged(_ before: [FileState], _ after: [FileState], stable: (String) -> Bool) -> Bool {
        guard before.map(\.name) == after.map(\.name) else { return false }
        for (old, new) in zip(before, after) {
            if stable(old.name) {
                if old != new { return false }
            } else if new.inode != old.inode || new.size < old.size {
                return false
            }
        }
        return true
    }

    /// Linux's `O_NOATIME` (Glibc hides it behind `_GNU_SOURCE`): reading does not update the
    /// file's access time.
    static let noAccessTime: Int32 = 0o1000000

    /// Copies one regular file, reading it without changing its access time where allowed.
    static func copyFile(_ source: String, to target: String) throws(CopyFailure) {
        var input = open(source, O_RDONLY | O_CLOEXEC | Self.noAccessTime | O_NONBLOCK)
        if input < 0, errno == EPERM {
            // O_NOATIME is only for the file's owner.
            input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        }
        guard input >= 0 else {
            if errno == ENOENT { throw .vanished }
            if errno == EACCES { throw .denied }
            throw .failed(String(cString: strerror(errno)))
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .failed("not a regular file")
        }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .failed("cannot write the copy: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try DescriptorIO.read(input, into: $0) }
            } catch {
                throw .failed("\(error)")
            }
            if count == 0 { break }
            do {
                try buffer.withUnsafeBytes { try DescriptorIO.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output) }
            } catch {
                throw .failed("cannot write the copy: \(error)")
            }
        }
    }
}
#endif
