#if canImport(Glibc)
import Glibc
import CLinuxFileCalls
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
        if let problem = trust.placeProblem(path: path, info: info) {
            throw FileError(path: path, operation: .inspect, problem: problem, subject: trust.subject)
        }
        return true
    }

    /// Makes `path` and any missing parents, each 0700 exactly, then judges `path` by `trust`.
    ///
    /// Each folder is made and then changed through a descriptor of its parent held open
    /// (`mkdirat`, then `openat` with `O_NOFOLLOW`, `fchmod`, `fchown`): a folder swapped for a
    /// link after it was made is never followed, so a root process changes the mode and owner
    /// of what it made and of nothing else. Existing folders are passed through as they are.
    /// - Throws: ``FileError`` when a folder cannot be made, or the last one is not trusted.
    package static func ensure(_ path: String, trust: FileTrust, ownership: Ownership = .process) throws(FileError) {
        if try check(path, trust: trust) { return }
        // Nothing is made where the rule would refuse it once made.
        if let problem = trust.placeProblem(path: path, info: stat()) {
            throw FileError(path: path, operation: .create, problem: problem, subject: trust.subject)
        }
        // Existing folders are held with O_PATH: passing through needs only search permission
        // (a folder 0711 on the way is walked, as a path lookup walks it), never read permission.
        var parent = SystemCalls.open(path.hasPrefix("/") ? "/" : ".", rizq_O_PATH | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { throw FileError.current(path, .create, subject: "folder") }
        defer { close(parent) }
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            let name = String(component)
            var created = false
            if SystemCalls.mkdirat(parent, name, 0o700, path: partial) == 0 {
                created = true
            } else if Errno.current != .fileExists {
                throw FileError(path: partial, operation: .create, problem: .system(.current), subject: "folder")
            }
            // What was made is opened without following a link; what was there, as it is.
            let next = SystemCalls.openat(parent, name, O_DIRECTORY | O_CLOEXEC | (created ? O_RDONLY | O_NOFOLLOW : rizq_O_PATH), path: partial)
            guard next >= 0 else {
                let code = Errno.current
                if created, code == .tooManySymbolicLinks || code == .notADirectory {
                    throw FileError(path: partial, operation: .create, problem: .symbolicLink(target: FileWords.linkTarget(partial)), subject: "folder")
                }
                throw FileError(path: partial, operation: .create, problem: .system(code), subject: "folder")
            }
            if created {
                // mkdir's mode passes through the umask: exactly 0700.
                _ = SystemCalls.fchmod(next, 0o700)
                if ownership == .inheritedWhenRoot { giveParentsOwner(parent: parent, folder: next) }
            }
            close(parent)
            parent = next
        }
        try check(path, trust: trust)
    }

    /// Root only: gives the folder `folder` (just made) the owner of its parent `parent`.
    private static func giveParentsOwner(parent: Int32, folder: Int32) {
        guard geteuid() == 0 else { return }
        var info = stat()
        guard fstat(parent, &info) == 0, info.st_uid != 0 || info.st_gid != 0 else { return }
        _ = SystemCalls.fchown(folder, info.st_uid, info.st_gid)
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
