import Foundation
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// The folder a sync engine shares for one suite, and the files device sync keeps there:
///
/// ```
/// <folder>/replica-<device>.json                                   one per device, written only by it
/// <folder>/.replica-<device>.lock, .replica-<device>.json.tmp-…      its lock and a write's temporary
///                                                                  file (kept out of sync: .stignore)
/// <folder>/replica-<device>.sync-conflict-<date>-<time>-<id>.json  a conflict copy the engine made
/// ```
struct ReplicaFolder: Sendable {
    /// A replica file read, and the version it was read at.
    struct Read: Sendable {
        var document: ReplicaDocument
        var path: String
        /// Whether it is a conflict copy (then archived once merged).
        var isConflictCopy: Bool
    }

    let path: String

    static let replicaPrefix = "replica-"
    /// The patterns that keep a replica's lock and temporary files out of Syncthing
    /// (`.stignore`, in the root of the shared folder).
    static let ignorePatterns = [".replica-*.lock", ".replica-*.json.tmp-*"]

    /// Whether the folder is there.
    var exists: Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The file of device `id`'s replica.
    func replicaFile(_ id: String) throws(SyncError) -> SyncFile {
        do {
            return try SyncFile(directory: path, name: Self.replicaPrefix + id, subject: "replica")
        } catch {
            throw .storage(error)
        }
    }

    /// The names of the replica files and of their conflict copies in the folder, sorted.
    func names() -> (replicas: [String], conflictCopies: [String]) {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var replicas: [String] = []
        var copies: [String] = []
        for name in all where name.hasPrefix(Self.replicaPrefix) && name.hasSuffix(".json") {
            if ConflictCopyName.isConflictCopy(name) { copies.append(name) } else { replicas.append(name) }
        }
        return (replicas, copies)
    }

    /// The device id a replica file's name holds (`replica-<id>.json`); `nil` for another name.
    static func replicaID(ofFile name: String) -> String? {
        guard name.hasPrefix(replicaPrefix), name.hasSuffix(".json"), !ConflictCopyName.isConflictCopy(name) else { return nil }
        let id = String(name.dropFirst(replicaPrefix.count).dropLast(".json".count))
        return ReplicaIdentity.isValid(id) ? id : nil
    }

    /// Every replica in the folder and every conflict copy of one, read. A file that cannot be
    /// read or is not a replica is left alone and reported in `problems` (never deleted: it may
    /// be a newer version's).
    func readAll(cache: inout ReplicaCache) -> (reads: [Read], problems: [SyncError]) {
        let (replicas, copies) = names()
        var reads: [Read] = []
        var problems: [SyncError] = []
        for (name, isCopy) in replicas.map({ ($0, false) }) + copies.map({ ($0, true) }) {
            let file = path + "/" + name
            do throws(SyncError) {
                if let document = try cache.read(file) {
                    reads.append(Read(document: document, path: file, isConflictCopy: isCopy))
                }
            } catch {
                problems.append(error)
            }
        }
        cache.keep(only: Set(reads.map(\.path)))
        return (reads, problems)
    }

    /// Adds the ignore patterns to `.stignore` in the root of the Syncthing folder that holds
    /// this one (the nearest folder up with `marker`); nothing when there is none, or they are
    /// there already. Best effort: another engine needs its own ignore rules (the article says).
    func ensureIgnorePatterns(marker: String = ".stfolder") {
        guard let root = Self.engineRoot(of: path, marker: marker) else { return }
        let ignoreFile = root + "/.stignore"
        let existing = (try? String(contentsOfFile: ignoreFile, encoding: .utf8)) ?? ""
        let lines = Set(existing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = Self.ignorePatterns.filter { !lines.contains($0) }
        guard !missing.isEmpty else { return }
        var text = existing
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        text += "// RizqPrefs device sync: a replica's lock and temporary files stay on their device\n"
        text += missing.joined(separator: "\n") + "\n"
        try? text.write(toFile: ignoreFile, atomically: true, encoding: .utf8)
    }

    /// The nearest folder at or above `path` that holds `marker`.
    static func engineRoot(of path: String, marker: String) -> String? {
        var folder = path
        for _ in 0..<64 {
            if FileManager.default.fileExists(atPath: folder + "/" + marker) { return folder }
            guard folder != "/", !folder.isEmpty else { return nil }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }
}

/// The replicas read by earlier rounds, by path and version: a round re-reads only the files
/// that changed since (a suite of thousands of keys on several devices is parsed once per change).
struct ReplicaCache: Sendable {
    private struct Version: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    private var entries: [String: (version: Version, document: ReplicaDocument)] = [:]

    init() {}

    /// The document at `path`: the cached one when the file is the same version; `nil` when
    /// the file is gone.
    mutating func read(_ path: String) throws(SyncError) -> ReplicaDocument? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let version = Version(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        if let cached = entries[path], cached.version == version { return cached.document }
        let directory = (path as NSString).deletingLastPathComponent
        let name = String(((path as NSString).lastPathComponent).dropLast(".json".count))
        let bytes: [UInt8]?
        do {
            // The suites' own reader: regular files only, never through a link, bounded.
            bytes = try SyncFile(directory: directory, name: name, subject: "replica").read()
        } catch {
            throw .storage(error)
        }
        guard let bytes else { return nil }
        let document = try ReplicaDocument(parsing: bytes, path: path)
        entries[path] = (version, document)
        return document
    }

    /// Forgets the files not in `paths`.
    mutating func keep(only paths: Set<String>) {
        entries = entries.filter { paths.contains($0.key) }
    }
}
