import RizqCore
import RizqJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The suite file on disk, and reading it. Plain POSIX calls, so that every step's failure is
/// seen and named.
///
/// The other things done to the file each have a file of their own: the crash-safe replace
/// (`SuiteFile+Replace.swift`), the lock between processes (`SuiteFileLock.swift`), moving a
/// damaged file aside (`SuiteFile+Quarantine.swift`), temporary files (`SuiteFile+Temporaries.swift`).
struct SuiteFile: Sendable {
    /// What reading the file found.
    enum Contents {
        /// No file yet: an empty suite.
        case missing
        /// The file's parsed top-level object, the bytes it was parsed from, the schema version
        /// it records (``SchemaVersionMember``; `nil`: none), and the record of when its keys
        /// were last changed that an earlier release kept in an extended attribute of the file
        /// (``ChangeTimes/attributeName``; `nil`: none — the ``ChangeLog`` holds it then).
        case entries(SuiteTable, FileStamp, bytes: [UInt8], schemaVersion: MigrationMark?, times: ChangeTimes?)
        /// The file is not JSON, or its root is not an object.
        case damaged(reason: String, FileStamp)
    }

    /// What ``load(_:)`` and ``loadRepairing()`` found.
    struct Loaded {
        /// The file's top-level object; empty when there is no file.
        var entries = SuiteTable()
        /// The version read; `nil` when there is no file.
        var stamp: FileStamp?
        /// The bytes `entries` were parsed from, exactly; `nil` when there is no file.
        var bytes: [UInt8]?
        /// The schema version the file records (``SchemaVersionMember``); `nil` when it
        /// records none, or there is no file.
        var schemaVersion: MigrationMark?
        /// Where a damaged file was moved aside, and why it was judged damaged.
        var movedAside: (path: String, reason: String)?
        /// When its keys were last changed (no file: never); `nil` when not known yet — read
        /// without the lock, the file carried no record of its own (``SuiteFile/load(_:)``
        /// reads its ``ChangeLog`` under the lock).
        var times: ChangeTimes? = ChangeTimes(floor: 0, keys: [:])

        /// The file's contents as read, when they are sound.
        init(_ contents: Contents) {
            guard case .entries(let entries, let stamp, let bytes, let version, let times) = contents else {
                self.init()
                return
            }
            self.init(entries: entries, stamp: stamp, bytes: bytes, schemaVersion: version, times: times)
        }

        init(
            entries: SuiteTable = SuiteTable(), stamp: FileStamp? = nil, bytes: [UInt8]? = nil, schemaVersion: MigrationMark? = nil,
            movedAside: (path: String, reason: String)? = nil, times: ChangeTimes? = ChangeTimes(floor: 0, keys: [:])
        ) {
            self.entries = entries
            self.stamp = stamp
            self.bytes = bytes
            self.schemaVersion = schemaVersion
            self.movedAside = movedAside
            self.times = times
        }
    }

    let location: SuiteLocation
    /// Below which size of the change log no compaction is tried (shared by the copies of this
    /// value: one per open suite).
    let compaction = ChangeLogCompactionHint()

    /// The current stamp of the file, or `nil` when there is none. A symbolic link is stamped
    /// as itself, not as what it points to: it is never read through (``read()``).
    func stamp() throws(SuiteStoreError) -> FileStamp? {
        var info = stat()
        guard lstat(location.path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .unreadable(path: location.path, reason: Errno(rawValue: code).description)
        }
        return FileStamp(info)
    }

    /// Reads and parses the file. Only a regular file is read, never through a symbolic link
    /// (of the file or of its folder), and never one over ``RegularFile/sizeLimit``. Without
    /// `withTimes`, the change times an earlier release kept in an extended attribute are not
    /// read (one system call less, for an open, which has no changes to weigh them against).
    func read(withTimes: Bool = true) throws(SuiteStoreError) -> Contents {
        if let problem = folderProblem() { throw .unreadable(path: location.path, reason: problem) }
        guard let (bytes, info, times) = try RegularFile.read(location.path, withTimes: withTimes) else { return .missing }
        let stamp = FileStamp(info)
        do {
            switch try JSONReader.parseSuiteFile(bytes) {
            case .object(let entries, let schemaVersion):
                return .entries(entries, stamp, bytes: bytes, schemaVersion: schemaVersion, times: times)
            case .notAnObject(let kind):
                return .damaged(reason: "its top level is \(kind == "array" ? "an array" : "a \(kind)"), not an object", stamp)
            }
        } catch {
            return .damaged(reason: "it is not valid JSON (\(error))", stamp)
        }
    }

    /// Reads the file, which the caller holds the lock of, with the record of when its keys
    /// were last changed (its own, from an earlier release, or the ``ChangeLog``'s); a damaged
    /// one is moved aside and reads as empty.
    func load(_ lock: borrowing SuiteFileLock) throws(SuiteStoreError) -> Loaded {
        let contents = try read()
        if case .damaged(let reason, let stamp) = contents { return try repair(reason, stamp, lock) }
        return withTimes(Loaded(contents), lock)
    }

    /// `loaded` with its change times, read under `lock` (shared or not) when it has none.
    func withTimes(_ loaded: Loaded, _ lock: borrowing SuiteFileLock) -> Loaded {
        guard loaded.times == nil, let stamp = loaded.stamp else { return loaded }
        var result = loaded
        result.times = changeTimes(of: stamp, lock)
        return result
    }

    /// The rule the suite's folder is judged by: RizqPrefs' own (`groups`, `apps/<app id>`), so
    /// never a link, this user's or root's, and not writable by other users.
    static let folderTrust = FileTrust.settings("folder")

    /// Why the suite's folder cannot be used (a symbolic link, not a folder, another user's, or
    /// writable by others); `nil` when it can, or is not there yet. Only its last component is
    /// judged: the root above may well be a link the user made.
    func folderProblem() -> String? {
        let folder = location.directory
        var info = stat()
        guard lstat(folder, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            guard let problem = Self.folderTrust.problem(with: info, expectsFolder: true) else { return nil }
            return FileError(path: folder, operation: .inspect, problem: problem, subject: "folder").namedReason
        case S_IFLNK:
            return "its folder \(folder) is a symbolic link (to \(FileWords.linkTarget(folder))), and suite files are never read or written through links, so that no file elsewhere is touched; replace the link by a real folder (rm '\(folder)' && mkdir -m 700 '\(folder)', then move the files back in)"
        default:
            return "its folder \(folder) is \(FileWords.kindName(info.st_mode)), not a folder; move it away (mv '\(folder)' '\(folder).moved')"
        }
    }

    /// Creates the suite's folder (and its parents) with mode 0700 when missing; refuses a
    /// folder that is not to be trusted (``folderProblem()``). A root process gives each folder
    /// it makes the owner of its parent (a user's folder stays the user's).
    func ensureDirectory() throws(SuiteStoreError) {
        if let problem = folderProblem() { throw .writeFailed(path: location.path, reason: problem) }
        do {
            try PrivateFolder.ensure(location.directory, trust: Self.folderTrust, ownership: .inheritedWhenRoot)
        } catch {
            throw .writeFailed(path: location.path, reason: error.isMissing || error.operation == .create ? "cannot create folder \(error.path): \(error.reason)" : error.namedReason)
        }
    }

    /// Removes the file (a suite that had no file goes back to having none); the folder is
    /// fsynced so that the removal is durable.
    func remove() throws(SuiteStoreError) {
        do {
            try AtomicFile.remove(location.path, subject: "suite file")
        } catch {
            throw .writeFailed(path: location.path, reason: error.reason)
        }
    }

    /// Makes the folder's entries (a rename, a removal) durable.
    func syncDirectory() {
        try? PrivateFolder.sync(location.directory)
    }
}
