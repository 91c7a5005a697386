import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// One pass over a mounted folder's files — a kubelet generation folder, or a plain folder —
/// within its ``MountedFolder/Limits``: every folder judged, every file opened and judged through
/// ``PrivateFile``, names that start with `..` skipped. It says when something it met vanished
/// (``Failure/vanished``): in a generation folder, that means kubelet has moved on and is
/// deleting it, and the read starts over.
struct FolderWalk {
    /// Why a walk stopped.
    enum Failure: Error {
        /// A folder or file listed a moment before is gone: the folder changed under the walk.
        case vanished
        /// The folder as a whole cannot be read.
        case refused(MountError)
    }

    let folder: MountedFolder
    /// The folder walked: the mounted folder, or its generation folder.
    let base: String
    /// Whether `base` is a kubelet generation folder (immutable; links in it are refused).
    let inGeneration: Bool
    /// Whether files are read (else only their names are collected).
    let readsValues: Bool

    /// What was found, by key.
    private(set) var entries: [String: MountedSnapshot.Entry] = [:]
    /// Keys whose file has no name left at its source (link count 0: replaced there).
    private(set) var unlinked: [String] = []
    /// The version of every folder and file met, by path (plain folders: checked after the walk).
    private var versions: [(path: String, followsLink: Bool, version: FileStamp.Version)] = []
    private var total = 0
    private var files = 0

    init(folder: MountedFolder, base: String, inGeneration: Bool, readsValues: Bool) {
        self.folder = folder
        self.base = base
        self.inGeneration = inGeneration
        self.readsValues = readsValues
    }

    /// Walks `base` and everything in it.
    mutating func walk() throws(Failure) {
        try walk(relative: "", depth: 0)
    }

    /// Whether every folder and file met still has the version it had (plain folders: nothing
    /// was added, removed, replaced or written in place during the walk).
    func isUnchanged() -> Bool {
        versions.allSatisfy { entry in
            var info = stat()
            let found = entry.followsLink ? stat(entry.path, &info) : lstat(entry.path, &info)
            return found == 0 && FileStamp(info).version == entry.version
        }
    }

    private mutating func walk(relative: String, depth: Int) throws(Failure) {
        let directory = relative.isEmpty ? base : base + "/" + relative
        // The mounted folder itself may be reached through a link (`/var/run`); nothing below it.
        let trust = relative.isEmpty && !inGeneration ? folder.folderTrust : folder.folderTrust.following(false)
        do {
            guard try PrivateFolder.check(directory, trust: trust) else { throw Failure.vanished }
        } catch let error as FileError {
            throw .refused(error.mountedFolderError)
        } catch {
            throw .vanished
        }
        if !inGeneration, let stamp = relative.isEmpty ? Self.stamp(following: directory) : FileStamp.of(directory) {
            versions.append((directory, relative.isEmpty, stamp.version))
        }
        for (name, type) in try Self.entries(in: directory).sorted(by: { $0.name < $1.name }) where !name.hasPrefix("..") {
            let key = relative.isEmpty ? name : relative + "/" + name
            let path = directory + "/" + name
            // The listing's type where the file system gives one (a regular file needs no lstat:
            // the open judges it); lstat otherwise.
            var isFolder = type == UInt8(DT_DIR)
            if type != UInt8(DT_REG), type != UInt8(DT_DIR) {
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    if Errno.current == .noSuchFile { throw .vanished }
                    throw .refused(.unreadable(path: path, reason: Errno.current.description))
                }
                isFolder = info.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder {
                guard depth + 1 <= folder.limits.depth else {
                    throw .refused(.overLimit(folder: folder.path, reason: "'\(key)' is more than \(folder.limits.depth) folders deep; a mounted folder of settings is flat or nearly so"))
                }
                try walk(relative: key, depth: depth + 1)
                continue
            }
            files += 1
            guard files <= folder.limits.files else {
                throw .refused(.overLimit(folder: folder.path, reason: "it holds more than \(folder.limits.files) files"))
            }
            guard readsValues else {
                entries[key] = .bytes([])
                continue
            }
            try read(path, key: key)
        }
    }

    /// Reads one file through the file layer, into `entries`.
    private mutating func read(_ path: String, key: String) throws(Failure) {
        // Kubernetes' keys are regular files in the generation: a link there is not kubelet's.
        let trust = inGeneration ? folder.fileTrust.following(false) : folder.fileTrust
        let remaining = folder.limits.totalSize - total
        let limit = min(folder.limits.fileSize, max(remaining, 0))
        do {
            guard let file = try PrivateFile.open(path, trust: trust) else { throw Failure.vanished }
            let bytes = try file.readAll(limit: limit)
            total += bytes.count
            entries[key] = .bytes(bytes)
            if file.info.st_nlink == 0 { unlinked.append(key) }
            if !inGeneration { versions.append((path, true, try file.currentStamp().version)) }
        } catch let error as FileError {
            if error.isMissing { throw .vanished }
            if case .tooLarge = error.problem, limit < folder.limits.fileSize {
                throw .refused(.overLimit(folder: folder.path, reason: "its files hold more than \(FileWords.size(Int64(folder.limits.totalSize))) in all"))
            }
            entries[key] = .refused(reason: error.reason)
        } catch let failure as Failure {
            throw failure
        } catch {
            entries[key] = .refused(reason: "\(error)")
        }
    }

    /// The stamp of what `path` names, a final link followed.
    private static func stamp(following path: String) -> FileStamp? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStamp(info) : nil
    }

    /// The names in the folder `path` (not `.` and `..`), each with its type as the listing
    /// gives it (`DT_REG`, `DT_DIR`, …; `DT_UNKNOWN` where the file system gives none).
    private static func entries(in path: String) throws(Failure) -> [(name: String, type: UInt8)] {
        guard let stream = opendir(path) else {
            let code = Errno.current
            if code == .noSuchFile || code == .notADirectory { throw .vanished }
            throw .refused(.unreadable(path: path, reason: code.description))
        }
        defer { closedir(stream) }
        var names: [(name: String, type: UInt8)] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = errno
                if code == 0 { break }
                if code == ENOENT { throw .vanished }
                throw .refused(.unreadable(path: path, reason: Errno(rawValue: code).description))
            }
            // A name that is not UTF-8 text is no key (keys are text); it is left out.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validating: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let name, name != ".", name != ".." { names.append((name, entry.pointee.d_type)) }
        }
        return names
    }
}
