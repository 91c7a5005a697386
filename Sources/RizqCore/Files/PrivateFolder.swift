#if canImport(Glibc)
import Glibc
#endif

/// A folder of this package's: made 0700 (whatever the umask), and judged by a ``FileTrust``
/// before anything in it is read or written — the same checks on both paths.
package enum PrivateFolder {
    /// Who owns what a root process makes: nobody (it is root's), or the owner of the folder
    /// it is made in (a root service writing a user's files keeps them the user's).
    package enum Ownership: Sendable {
        /// The process's own user.
        case process
        /// A root process gives each folder it makes the owner of its parent.
        case inheritedWhenRoot
    }

    /// Judges the folder at `path` (never followed through a final link); `false` when it does
    /// not exist.
    /// - Throws: ``FileError`` when it is a link, not a folder, another user's, or writable by
    ///   others (without the sticky bit).
    @discardableResult
    package static func check(_ path: String, trust: FileTrust) throws(FileError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = Errno.current
            if code == .noSuchFile || code == .notADirectory { return false }
            throw FileError(path: path, operation: .inspect, problem: .system(code), subject: trust.subject)
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard trust.followsLinks else {
                throw FileError(path: path, operation: .inspect, problem: .symbolicLink(target: FileWords.linkTarget(path)), subject: trust.subject)
            }
            guard stat(path, &info) == 0 else {
                let code = Errno.current
                if code == .noSuchFile { return false }
                throw FileError(path: path, operation: .inspect, problem: .system(code), subject: trust.subject)
            }
        }
        try trust.check(info, path: path, operation: .inspect, expectsFolder: true)
        return true
    }

    /// Makes `path` and any missing parents, each 0700 exactly, then judges `path` by `trust`.
    /// - Throws: ``FileError`` when a folder cannot be made, or the last one is not trusted.
    package static func ensure(_ path: String, trust: FileTrust, ownership: Ownership = .process) throws(FileError) {
        if try check(path, trust: trust) { return }
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            if SystemCalls.mkdir(partial, 0o700) != 0 {
                let code = Errno.current
                if code == .fileExists { continue }
                throw FileError(path: partial, operation: .create, problem: .system(code), subject: "folder")
            }
            // mkdir's mode passes through the umask: exactly 0700.
            _ = SystemCalls.chmod(partial, 0o700)
            if ownership == .inheritedWhenRoot { giveParentsOwner(toFolder: partial) }
        }
        try check(path, trust: trust)
    }

    /// Root only: gives a folder this process has just made the owner of its parent.
    private static func giveParentsOwner(toFolder path: String) {
        guard geteuid() == 0 else { return }
        let parent = path.split(separator: "/", omittingEmptySubsequences: true).dropLast().reduce("") { $0 + "/" + $1 }
        guard let owner = FileOwner.of(parent.isEmpty ? "/" : parent), owner.user != 0 || owner.group != 0 else { return }
        _ = SystemCalls.lchown(path, owner.user, owner.group)
    }

    /// `fsync` of the folder `path`, so that a rename, a new name or a removal in it survives a
    /// crash.
    package static func sync(_ path: String) throws(FileError) {
        do {
            try DescriptorIO.syncFolder(path)
        } catch {
            throw FileError(path: path, operation: .write, problem: .system(error), subject: "folder")
        }
    }

    /// The folder that holds `path` ("." for a bare name).
    package static func parent(of path: String) -> String {
        // Searched byte by byte: "/" is one byte in UTF-8 and never part of another character.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    package static func name(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The names in the folder `path` (not `.` and `..`), unsorted; empty when it cannot be read.
    package static func names(in path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
