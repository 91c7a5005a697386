#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// A file believed only when every folder on its way is believed too: the file layer's reader
/// of an administrator's files (``FileTrust/administrator(_:)``), which a user must not be able
/// to write, change, or swap for another file by changing a folder above it.
///
/// The path is walked from `/` one name at a time, each step opened relative to the folder
/// before it (`openat` with `O_NOFOLLOW`), so that nothing is looked up twice and no folder can
/// be swapped between its check and its use. Every folder on the way is judged by the rule (a
/// folder writable by others passes only with the sticky bit, as `/tmp`); a symbolic link is
/// followed — NixOS and configuration tools put an administrator's files behind links — but only
/// as found in a folder that passed, and its target is walked the same way, at most
/// ``maximumLinks`` links in all. The file itself is opened non-blocking and judged like any
/// ``PrivateFile`` (kind, owner, mode, size).
///
/// ```swift
/// guard let file = try TrustedPath.open("/etc/xdg/rizq-prefs/managed/apps/A/A.json",
///                                       trust: .administrator("managed preferences file")) else { return }
/// let bytes = try file.readAll(limit: 1 << 20)
/// ```
package enum TrustedPath {
    /// The most symbolic links one walk follows (the kernel's own limit is 40).
    package static let maximumLinks = 16
    /// The most names a folder listing returns (``names(inFolder:trust:)``).
    package static let maximumNames = 1024

    /// Opens the regular file at the absolute `path` for reading once it and every folder above it
    /// pass `trust`; `nil` when nothing is there (a missing file or folder on the way).
    /// - Throws: ``FileError`` naming the first folder or file that fails the rule, a link loop,
    ///   or a relative path.
    package static func open(_ path: String, trust: FileTrust) throws(FileError) -> PrivateFile? {
        guard let (folder, name) = try walk(to: path, trust: trust) else { return nil }
        defer { close(folder) }
        let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let code = Errno.current
            if code == .noSuchFile || code == .notADirectory { return nil }
            throw FileError(path: path, operation: .read, problem: .system(code), subject: trust.subject)
        }
        let info = try PrivateFile.status(ofOpened: descriptor, path: path, .read, subject: trust.subject)
        do {
            try trust.check(info, path: path, operation: .read)
        } catch {
            close(descriptor)
            throw error
        }
        return PrivateFile(descriptor: descriptor, path: path, info: info, trust: trust)
    }

    /// The names in the folder at the absolute `path` (not `.` and `..`), sorted by their bytes,
    /// at most ``maximumNames`` of them, once it and every folder above it pass `trust`; `nil`
    /// when there is no folder there.
    /// - Throws: ``FileError`` naming the folder that fails the rule, or ``FileError/Problem/tooLarge(size:limit:)``
    ///   when the folder holds more names than that.
    package static func names(inFolder path: String, trust: FileTrust) throws(FileError) -> [String]? {
        guard let (parent, name) = try walk(to: path, trust: trust) else { return nil }
        defer { close(parent) }
        guard let folder = try step(parent, name, path: path, trust: trust, last: true) else { return nil }
        // O_PATH descriptors cannot be listed: open the folder itself, relative to what was judged.
        let listed = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        close(folder)
        guard listed >= 0 else { throw FileError.current(path, .read, subject: trust.subject) }
        guard let stream = fdopendir(listed) else {
            let error = FileError.current(path, .read, subject: trust.subject)
            close(listed)
            throw error
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            guard names.count < maximumNames else {
                throw FileError(path: path, operation: .read, problem: .tooLarge(size: Int64(names.count + 1), limit: maximumNames), subject: trust.subject)
            }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    // MARK: The walk

    /// Walks `path` up to its last name: the descriptor (`O_PATH`) of the folder that holds it,
    /// judged with every folder above, and that name; `nil` when a folder on the way is missing.
    private static func walk(to path: String, trust: FileTrust) throws(FileError) -> (folder: Int32, name: String)? {
        guard path.hasPrefix("/") else {
            throw FileError(path: path, operation: .read, problem: .wrongKind(found: "a relative path", expected: "an absolute path"), subject: trust.subject)
        }
        var remaining = components(of: path)
        guard let last = remaining.popLast() else {
            throw FileError(path: path, operation: .read, problem: .wrongKind(found: "the root folder", expected: "a file"), subject: trust.subject)
        }
        var links = 0
        var folder = try root(path: path, trust: trust)
        var name = last
        while true {
            // Folders first, one name at a time; a link among them puts its target's names in front.
            while !remaining.isEmpty {
                let next = remaining.removeFirst()
                switch try resolve(folder, next, path: path, trust: trust, links: &links) {
                case .missing:
                    close(folder)
                    return nil
                case .folder(let descriptor):
                    close(folder)
                    folder = descriptor
                case .link(let target):
                    if target.hasPrefix("/") {
                        close(folder)
                        folder = try root(path: path, trust: trust)
                    }
                    remaining = components(of: target) + remaining
                }
            }
            // The last name: a link there is followed too, its target walked the same way.
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 || [.noSuchFile, .notADirectory].contains(Errno.current) else {
                let error = FileError.current(path, .read, subject: trust.subject)
                close(folder)
                throw error
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return (folder, name) }
            let target = try linkTarget(folder, name, path: path, trust: trust, links: &links)
            if target.hasPrefix("/") {
                close(folder)
                folder = try root(path: path, trust: trust)
            }
            remaining = components(of: target)
            guard let targetLast = remaining.popLast() else {
                close(folder)
                throw FileError(path: path, operation: .read, problem: .wrongKind(found: "a link to a folder", expected: "a file"), subject: trust.subject)
            }
            name = targetLast
        }
    }

    /// What a name in a folder being walked is.
    private enum Step {
        case missing
        case folder(Int32)
        case link(target: String)
    }

    /// `name` in `folder`: a judged folder's descriptor, a link's target, or missing.
    private static func resolve(_ folder: Int32, _ name: String, path: String, trust: FileTrust, links: inout Int) throws(FileError) -> Step {
        if name == "." { return .folder(dup(folder)) }
        var info = stat()
        if name != "..", fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return .link(target: try linkTarget(folder, name, path: path, trust: trust, links: &links))
        }
        guard let descriptor = try step(folder, name, path: path, trust: trust, last: false) else { return .missing }
        return .folder(descriptor)
    }

    /// Opens the folder `name` in `folder` (`O_PATH`, never through a link) and judges it.
    private static func step(_ folder: Int32, _ name: String, path: String, trust: FileTrust, last: Bool) throws(FileError) -> Int32? {
        let descriptor = openat(folder, name, rizq_O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = Errno.current
            if code == .noSuchFile || code == .notADirectory { return nil }
            if code == .tooManySymbolicLinks {
                throw FileError(path: path, operation: .read, problem: .wrongKind(found: "a symbolic link", expected: "a folder"), subject: trust.subject)
            }
            throw FileError(path: path, operation: .read, problem: .system(code), subject: trust.subject)
        }
        let info = try PrivateFile.status(ofOpened: descriptor, path: path, .read, subject: trust.subject)
        if let problem = trust.problem(with: info, expectsFolder: true) {
            close(descriptor)
            throw FileError(path: last ? path : folderPath(folder, name), operation: .read, problem: problem, subject: last ? trust.subject : "folder above the \(trust.subject)")
        }
        return descriptor
    }

    /// The root folder, judged.
    private static func root(path: String, trust: FileTrust) throws(FileError) -> Int32 {
        let descriptor = Glibc.open("/", rizq_O_PATH | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError.current("/", .read, subject: "root folder") }
        let info = try PrivateFile.status(ofOpened: descriptor, path: "/", .read, subject: "root folder")
        if let problem = trust.problem(with: info, expectsFolder: true) {
            close(descriptor)
            throw FileError(path: "/", operation: .read, problem: problem, subject: "folder above the \(trust.subject)")
        }
        return descriptor
    }

    /// The target of the link `name` in `folder`, counted against ``maximumLinks``.
    private static func linkTarget(_ folder: Int32, _ name: String, path: String, trust: FileTrust, links: inout Int) throws(FileError) -> String {
        links += 1
        guard links <= maximumLinks else {
            throw FileError(path: path, operation: .read, problem: .system(.tooManySymbolicLinks), subject: trust.subject)
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                characters.baseAddress.map { readlinkat(folder, name, $0, characters.count) } ?? -1
            }
        }
        guard count > 0, count < buffer.count else {
            throw FileError(path: path, operation: .read, problem: .system(count < 0 ? .current : .tooManySymbolicLinks), subject: trust.subject)
        }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// The names of `path`, without empty ones (a doubled or trailing `/`).
    private static func components(of path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The path of `name` in the folder open at `folder`, for messages (`/proc/self/fd` names it).
    private static func folderPath(_ folder: Int32, _ name: String) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                characters.baseAddress.map { readlink("/proc/self/fd/\(folder)", $0, characters.count - 1) } ?? -1
            }
        }
        guard count > 0 else { return name }
        let parent = String(decoding: buffer[..<count], as: UTF8.self)
        return parent == "/" ? "/" + name : parent + "/" + name
    }
}
