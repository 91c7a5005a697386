import Foundation
import RizqCore
#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// A folder of one file per key that something outside the process mounts and rewrites: a
/// Kubernetes ConfigMap or Secret volume, Docker's and Compose's `/run/secrets`, systemd's
/// `$CREDENTIALS_DIRECTORY`, or any folder made by hand. Read as snapshots of exactly one
/// generation, and watched live with inotify (``updates()``).
///
/// ```swift
/// let config = MountedFolder("/etc/config")
/// let snapshot = try config.read()
/// print(try snapshot.text(forKey: "http.timeout") ?? "30")
/// for await snapshot in try config.updates() {      // the current one first, then each change
///     print(snapshot.generation ?? "plain", snapshot.keys)
/// }
/// ```
///
/// **Kubernetes volumes** are written by kubelet's atomic writer: every generation is a new
/// hidden folder (`..2026_11_29_05_55_36.2136083382`) written whole, then published by renaming
/// a link `..data` onto it; each key is a link `key → ..data/key`. A read resolves `..data` once,
/// reads that generation's files (never the top-level links, which dangle or are missing while
/// kubelet adds and removes them), then resolves `..data` again, and starts over if it moved:
/// a listing of a generation kubelet is deleting can come back partial with no error. Names
/// that start with `..` are never keys; a single dot is (`.dockerconfigjson`).
///
/// **Plain folders** (no `..data`) are read as they are. Such a read is one state too: the names
/// and file versions (inode, size, modification time) after the read must be those seen during
/// it, or the read starts over. Docker's secrets and systemd's credentials never change while
/// the container or service runs; a Kubernetes `subPath` mount (a plain file bind-mounted from
/// one generation) never updates, and a read says so (``MountWarning/frozenSubPath(key:source:)``).
///
/// **Every file is judged** by RizqCore's file layer before a byte is read: owned by this user
/// or root and writable by nobody else (`FileTrust.hostProvided`, for secrets and
/// configuration alike: the same hosts write both, and a configuration value can name a server
/// to trust or a command to run); the folder and every folder in it the same. A file that fails
/// is refused alone (the other keys read). Sizes and counts are bounded (``Limits``).
public struct MountedFolder: Sendable, Hashable {
    /// Whether a folder's values are secrets.
    public enum Sensitivity: Sendable, Hashable {
        /// Every value is a secret (never printed, marked secret in configuration).
        case secrets
        /// No value is a secret.
        case configuration
        /// Secrets when the folder is where hosts put secrets (``looksLikeSecrets(_:)``).
        case detect
    }

    /// How much a folder may hold before it is refused.
    public struct Limits: Sendable, Hashable {
        /// The largest file read; a larger one is refused alone.
        public var fileSize: Int
        /// The most bytes read from a folder in all.
        public var totalSize: Int
        /// The most files in a folder.
        public var files: Int
        /// The deepest a file may be (`a/b/c` is 2 folders deep).
        public var depth: Int
        /// How many times a read starts over when the folder changes under it.
        public var attempts: Int

        /// Limits of your own.
        public init(fileSize: Int, totalSize: Int, files: Int, depth: Int, attempts: Int) {
            self.fileSize = fileSize
            self.totalSize = totalSize
            self.files = files
            self.depth = depth
            self.attempts = attempts
        }

        /// 1 MiB a file (Kubernetes' limit for a whole ConfigMap or Secret, systemd's for a
        /// credential), 8 MiB in all, 1,024 files, 8 folders deep, 100 attempts.
        public static let standard = Limits(fileSize: 1 << 20, totalSize: 8 << 20, files: 1024, depth: 8, attempts: 100)
    }

    /// The folder, as given (without a trailing `/`).
    public let path: String
    /// Whether its values are secrets.
    public let isSecrets: Bool
    /// What it may hold.
    public let limits: Limits

    /// The folder at `path`; nothing is read until asked.
    public init(_ path: String, sensitivity: Sensitivity = .detect, limits: Limits = .standard) {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.path = path
        switch sensitivity {
        case .secrets: isSecrets = true
        case .configuration: isSecrets = false
        case .detect: isSecrets = Self.looksLikeSecrets(path)
        }
        self.limits = limits
    }

    /// Whether `path` is where hosts put secrets: `/run/secrets` (Docker, Compose, Swarm) or
    /// `/var/run/secrets` (Kubernetes' service-account token) or inside them, systemd's
    /// `$CREDENTIALS_DIRECTORY`, or a memory file system (tmpfs, ramfs), which is what a
    /// Kubernetes Secret volume, a Swarm secret and a systemd credential are on. A ConfigMap
    /// volume is on the node's disk.
    public static func looksLikeSecrets(_ path: String) -> Bool {
        let real = realPath(path) ?? path
        var roots = ["/run/secrets", "/var/run/secrets"]
        if let credentials = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty {
            roots.append(realPath(credentials) ?? credentials)
        }
        if roots.contains(where: { real == $0 || real.hasPrefix($0 + "/") }) { return true }
        var info = statfs()
        guard statfs(path, &info) == 0 else { return false }
        let kind = UInt64(bitPattern: Int64(info.f_type)) & 0xFFFF_FFFF
        return kind == 0x0102_1994 || kind == 0x8584_58F6
    }

    /// The rule every file is judged by: this user's or root's, writable by nobody else.
    package var fileTrust: FileTrust { .hostProvided(isSecrets ? "mounted secret" : "mounted configuration file") }
    /// The rule of the folder and every folder in it.
    package var folderTrust: FileTrust { .hostProvided("mounted folder") }

    // MARK: Reading

    /// Everything the folder holds now, as one generation (a Kubernetes volume) or one state (a
    /// plain folder).
    /// - Throws: ``MountError``: the folder is missing, not trusted, over the limits, or
    ///   kept changing through every attempt. A refused file is not an error here: its key
    ///   throws when asked for.
    public func read() throws(MountError) -> MountedSnapshot {
        try read(knownLink: nil)
    }

    /// ``read()``; `knownLink` is what `..data` was just read to name (the watcher's check), so
    /// that the first attempt does not read it again.
    package func read(knownLink: String??) throws(MountError) -> MountedSnapshot {
        try checkFolder()
        var known = knownLink
        for _ in 0..<max(limits.attempts, 1) {
            let generation: String?
            if let link = known {
                generation = link
                known = nil
            } else {
                generation = try dataLink()
            }
            var walk = FolderWalk(
                folder: self, base: generation.map { path + "/" + $0 } ?? path, inGeneration: generation != nil, readsValues: true)
            guard try Self.completes(&walk) else { continue }
            // `..data` moved on (a listing of a generation being deleted can be partial with no
            // error), or a plain folder changed (or became a volume): start over.
            guard try dataLink() == generation else { continue }
            guard let generation else {
                guard walk.isUnchanged() else { continue }
                return MountedSnapshot(folder: path, layout: .plain, isSecrets: isSecrets, entries: walk.entries, warnings: warnings(of: walk))
            }
            return MountedSnapshot(folder: path, layout: .kubernetes(generation: generation), isSecrets: isSecrets, entries: walk.entries)
        }
        throw .keepsChanging(folder: path, attempts: max(limits.attempts, 1))
    }

    /// The bytes of one key's file, from one generation, without reading the others; `nil` when
    /// the folder has no such key (or `key` cannot be a file's name in it).
    /// - Throws: ``MountError``: ``MountError/refusedKey(folder:key:reason:)``
    ///   when the file is not to be trusted (another user's, writable by others, not a regular
    ///   file), ``MountError/overLimit(folder:reason:)`` when it is larger than
    ///   ``Limits/fileSize``, ``MountError/unreadable(path:reason:)`` when it cannot be read.
    public func bytes(forKey key: String) throws(MountError) -> [UInt8]? {
        guard Self.isValidKey(key) else { return nil }
        try checkFolder()
        for _ in 0..<max(limits.attempts, 1) {
            let generation = try dataLink()
            let file = generation.map { path + "/" + $0 + "/" + key } ?? path + "/" + key
            // The folders on the way are judged as a whole read judges them: the generation
            // folder, and each folder of a nested key.
            guard try judgeFolders(toKey: key, generation: generation) else {
                guard try dataLink() == generation else { continue }
                return nil
            }
            let trust = generation == nil ? fileTrust : fileTrust.following(false)
            var bytes: [UInt8]?
            do {
                bytes = try PrivateFile.read(file, trust: trust, limit: limits.fileSize)?.bytes
            } catch {
                if !error.isMissing {
                    // Refused, or unreadable: but only if it is still this generation's file.
                    guard try dataLink() == generation else { continue }
                    switch error.problem {
                    case .foreignOwner, .tooOpen, .symbolicLink, .wrongKind:
                        throw .refusedKey(folder: path, key: key, reason: error.reason)
                    case .tooLarge:
                        throw .overLimit(folder: path, reason: "the file '\(key)' \(error.reason.dropFirst(3))")
                    default:
                        throw .unreadable(path: file, reason: error.reason)
                    }
                }
            }
            // Missing, or read: either way, it is this generation's answer only if `..data` did not move.
            guard try dataLink() == generation else { continue }
            return bytes
        }
        throw .keepsChanging(folder: path, attempts: max(limits.attempts, 1))
    }

    /// Judges the folders between the folder and `key`'s file by ``folderTrust`` — the
    /// generation folder (never through a link) and each folder of a nested key — as
    /// ``read()``'s walk does; `false` when one is missing.
    /// - Throws: ``MountError/untrusted(path:reason:)``.
    private func judgeFolders(toKey key: String, generation: String?) throws(MountError) -> Bool {
        var folder = generation.map { path + "/" + $0 } ?? path
        var folders = generation == nil ? [] : [folder]
        for component in key.split(separator: "/").dropLast() {
            folder += "/" + component
            folders.append(folder)
        }
        for folder in folders {
            do {
                guard try PrivateFolder.check(folder, trust: folderTrust.following(false)) else { return false }
            } catch {
                throw .untrusted(path: folder, reason: error.reason)
            }
        }
        return true
    }

    /// What this machine's mount table says of the folder and of `key`'s file (a frozen
    /// `subPath` mount, a source replaced), without reading the folder: for a one-key read.
    public func warnings(forKey key: String) -> [MountWarning] {
        guard let table = MountTable.current() else { return [] }
        var warnings: [MountWarning] = []
        for (relative, mount) in table.mounts(under: Self.realPath(path) ?? path).sorted(by: { $0.key < $1.key }) where relative.isEmpty || relative == key {
            let named: String? = relative.isEmpty ? nil : relative
            if let generation = MountTable.kubeletGeneration(in: mount.root) {
                warnings.append(.frozenSubPath(key: named, source: generation + "/" + (mount.root.split(separator: "/").last.map(String.init) ?? "")))
            }
            if MountTable.isDeleted(mount.root) { warnings.append(.replacedAtSource(key: named)) }
        }
        return warnings
    }

    /// The keys the folder holds now (of one generation), sorted, without reading a value.
    /// - Throws: ``MountError``.
    public func keys() throws(MountError) -> [String] {
        try checkFolder()
        for _ in 0..<max(limits.attempts, 1) {
            let generation = try dataLink()
            var walk = FolderWalk(
                folder: self, base: generation.map { path + "/" + $0 } ?? path, inGeneration: generation != nil, readsValues: false)
            guard try Self.completes(&walk), try dataLink() == generation, generation != nil || walk.isUnchanged() else { continue }
            return walk.entries.keys.sorted()
        }
        throw .keepsChanging(folder: path, attempts: max(limits.attempts, 1))
    }

    /// Runs `walk`: `true` when it went through, `false` when something vanished under it.
    private static func completes(_ walk: inout FolderWalk) throws(MountError) -> Bool {
        do {
            try walk.walk()
            return true
        } catch {
            switch error {
            case .vanished: return false
            case .refused(let refusal): throw refusal
            }
        }
    }

    /// Whether `key` can name a file in a folder: not empty, no empty, `.` or `..` component,
    /// not starting with `..` (kubelet's own names), no NUL, components of at most 255 bytes,
    /// at most 4,096 bytes in all (kubelet's rules for a key's path).
    public static func isValidKey(_ key: String) -> Bool {
        guard !key.isEmpty, key.utf8.count <= 4096, !key.hasPrefix(".."), !key.utf8.contains(0) else { return false }
        return key.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { component in
            !component.isEmpty && component != "." && component != ".." && component.utf8.count <= 255
        }
    }

    /// The generation `..data` names now, `nil` when the folder has no `..data` (a plain folder).
    /// - Throws: ``MountError/untrusted(path:reason:)`` when `..data` is not a link to a
    ///   generation folder beside it.
    package func dataLink() throws(MountError) -> String? {
        let link = path + "/..data"
        var buffer = [CChar](repeating: 0, count: 257)
        let count = readlink(link, &buffer, 256)
        guard count >= 0 else {
            let code = Errno.current
            if code == .noSuchFile { return nil }
            if code == .notADirectory { throw .unreadable(path: path, reason: "it is not a folder") }
            if code.rawValue == EINVAL {
                throw .untrusted(path: link, reason: "..data is not a link; kubelet makes it a link to the generation folder beside it, so this is not a Kubernetes volume: remove ..data, or mount the volume itself")
            }
            throw .unreadable(path: link, reason: code.description)
        }
        let name = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard count < 256, name.hasPrefix(".."), name.count > 2, !name.contains("/"), name != "..data", name != "..data_tmp" else {
            throw .untrusted(path: link, reason: "..data points to '\(name)', not to a generation folder beside it (kubelet's are named ..<time>.<number>), so it could lead outside the folder; remove it, or mount the volume itself")
        }
        return name
    }

    /// Judges the folder itself (a final link followed: `/var/run` is one).
    private func checkFolder() throws(MountError) {
        let exists: Bool
        do {
            exists = try PrivateFolder.check(path, trust: folderTrust)
        } catch {
            throw error.mountedFolderError
        }
        guard exists else { throw .missing(folder: path) }
    }

    /// What a plain folder's read should tell: `subPath` mounts, files replaced at their source.
    private func warnings(of walk: FolderWalk) -> [MountWarning] {
        var warnings: [MountWarning] = []
        if let table = MountTable.current() {
            let mounts = table.mounts(under: Self.realPath(path) ?? path)
            for (relative, mount) in mounts.sorted(by: { $0.key < $1.key }) {
                let key: String? = relative.isEmpty ? nil : relative
                guard key == nil || walk.entries[relative] != nil else { continue }
                if let generation = MountTable.kubeletGeneration(in: mount.root) {
                    warnings.append(.frozenSubPath(key: key, source: generation + "/" + (mount.root.split(separator: "/").last.map(String.init) ?? "")))
                }
                if MountTable.isDeleted(mount.root) { warnings.append(.replacedAtSource(key: key)) }
            }
        }
        for key in walk.unlinked.sorted() where !warnings.contains(.replacedAtSource(key: key)) {
            warnings.append(.replacedAtSource(key: key))
        }
        return warnings
    }

    /// The canonical path (`realpath(3)`), or `nil` when it cannot be resolved.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension FileError {
    /// The mounted folder's error for this one: a file or folder not to be trusted (another
    /// user's, a link, open to others, a FIFO) is ``MountError/untrusted(path:reason:)``;
    /// any other failure ``MountError/unreadable(path:reason:)``.
    package var mountedFolderError: MountError {
        switch problem {
        case .foreignOwner, .tooOpen, .symbolicLink, .wrongKind:
            return .untrusted(path: path, reason: reason)
        default:
            return .unreadable(path: path, reason: reason)
        }
    }
}
