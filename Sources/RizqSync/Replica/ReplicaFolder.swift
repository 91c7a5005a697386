import Foundation
import Logging
import RizqCore
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
    /// Device sync's log (the label `DeviceSync` logs under).
    private static let logger = Logger(label: "rizq-prefs.sync")

    /// A replica file read, and the version it was read at.
    struct Read: Sendable {
        var document: ReplicaDocument
        var path: String
        /// Whether it is a conflict copy (then archived once merged).
        var isConflictCopy: Bool
        /// The entries whose values may be taken (``ReplicaCache/Checked``).
        var entries: [String: SyncedEntry]
        /// The keys whose values may not be taken, and why.
        var skipped: [String: String]
    }

    /// A file in the folder that was not read, and why (it is left where it is).
    struct Problem: Sendable, Equatable {
        var path: String
        var reason: String
        var isConflictCopy: Bool
    }

    let path: String

    static let replicaPrefix = "replica-"
    /// The most replica files (and conflict copies) one round reads: a person's devices are a
    /// handful, and their conflict copies are merged away.
    static let maximumFilesPerRound = 128
    /// The most bytes one round reads (and its cache keeps) over all replica files.
    static let maximumBytesPerRound: Int64 = 256 << 20
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

    /// Every replica in the folder and every conflict copy of one, read — but `own`'s replica
    /// (this device's: its entries come from its state, and no file speaks for it). A file that
    /// cannot be read or is not a replica is left alone and reported in `problems` (never
    /// deleted: it may be a newer version's): a link or FIFO (never followed or opened for
    /// reading), another user's file, one too large, one that is not a replica, one whose
    /// `replica` field names another device than its file name does.
    ///
    /// Bounded, whatever a peer (or whoever can write the folder) puts there: at most
    /// ``maximumFilesPerRound`` files are read in a round and at most ``maximumBytesPerRound``
    /// bytes (what the cache keeps is what the round read); the rest are reported and left
    /// for a later round, once the folder holds fewer.
    func readAll(cache: inout ReplicaCache, own: String? = nil) -> (reads: [Read], problems: [Problem]) {
        let (replicas, copies) = names()
        var reads: [Read] = []
        var problems: [Problem] = []
        var files = 0
        var bytes: Int64 = 0
        for (name, isCopy) in replicas.map({ ($0, false) }) + copies.map({ ($0, true) }) {
            let file = path + "/" + name
            let named = Self.replicaID(ofFile: isCopy ? ConflictCopyName.original(of: name) ?? name : name)
            if !isCopy, let own, named == own { continue }
            var info = stat()
            let size = lstat(file, &info) == 0 ? Int64(info.st_size) : 0
            guard files < Self.maximumFilesPerRound, bytes + size <= Self.maximumBytesPerRound else {
                problems.append(Problem(
                    path: file,
                    reason: "not read this round: a round reads at most \(Self.maximumFilesPerRound) replica files and \(Self.maximumBytesPerRound >> 20) MiB (the folder holds \(replicas.count + copies.count) replica files); merge or remove conflict copies (rizq-prefs sync merge-conflicts) and forget old devices (rizq-prefs sync forget-device)",
                    isConflictCopy: isCopy))
                continue
            }
            files += 1
            bytes += size
            guard let named else {
                problems.append(Problem(path: file, reason: "its name holds no valid replica id (replica-<id>.json)", isConflictCopy: isCopy))
                continue
            }
            do throws(SyncError) {
                guard let checked = try cache.read(file) else { continue }
                guard checked.document.replica == named else {
                    problems.append(Problem(
                        path: file,
                        reason: "it says it is the replica of device '\(checked.document.replica)', but its name is device '\(named)''s: a file speaks only for the device it is named after",
                        isConflictCopy: isCopy))
                    continue
                }
                reads.append(Read(document: checked.document, path: file, isConflictCopy: isCopy, entries: checked.entries, skipped: checked.skipped))
            } catch {
                problems.append(Problem(path: file, reason: Self.reason(error), isConflictCopy: isCopy))
            }
        }
        cache.keep(only: Set(reads.map(\.path)))
        return (reads, problems)
    }

    /// Why a replica could not be read, in words (the path is said apart).
    static func reason(_ error: SyncError) -> String {
        switch error {
        case .unreadableReplica(_, let reason): return reason
        case .storage(.unreadable(_, let reason)): return reason
        default: return error.description
        }
    }

    /// Adds the ignore patterns to `.stignore` in the root of the Syncthing folder that holds
    /// this one (the nearest folder up with `marker`); nothing when there is none, or they are
    /// there already. Best effort: another engine needs its own ignore rules (the article says).
    func ensureIgnorePatterns(marker: String = ".stfolder") {
        guard let root = Self.engineRoot(of: path, marker: marker) else { return }
        let ignoreFile = root + "/.stignore"
        // Through the file layer both ways: never a FIFO, a link or another user's file, bounded;
        // replaced atomically, its mode kept.
        let read: (bytes: [UInt8], stamp: FileStamp)?
        do {
            read = try PrivateFile.read(ignoreFile, trust: .settings("Syncthing ignore file"), limit: Self.ignoreFileLimit)
        } catch {
            Self.logger.warning("the Syncthing ignore file is not changed: \(error.reason)", metadata: ["path": "\(ignoreFile)"])
            return
        }
        let existing = read.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        let lines = Set(existing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = Self.ignorePatterns.filter { !lines.contains($0) }
        guard !missing.isEmpty else { return }
        var text = existing
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        text += "// RizqPrefs device sync: a replica's lock and temporary files stay on their device\n"
        text += missing.joined(separator: "\n") + "\n"
        let mode = read.map { mode_t($0.stamp.mode & 0o777) } ?? 0o644
        _ = try? AtomicFile.write(Array(text.utf8), to: ignoreFile, mode: mode, subject: "Syncthing ignore file")
    }

    /// The most of a `.stignore` read (one is a few lines).
    static let ignoreFileLimit = 1 << 20

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

    /// A replica read, with each value judged once per version of the file: the entries whose
    /// values may be taken, and those that may not — a value the suite cannot hold
    /// (``RizqPrefs/PrefValue/isRepresentableInJSON``: nested deeper than a suite file holds, a
    /// date out of range…) or one the credential rule refuses (a peer's token is neither merged
    /// nor published again from here).
    struct Checked: Sendable {
        var document: ReplicaDocument
        var entries: [String: SyncedEntry]
        var skipped: [String: String]

        init(_ document: ReplicaDocument) {
            self.document = document
            entries = [:]
            skipped = [:]
            entries.reserveCapacity(document.entries.count)
            for (key, entry) in document.entries {
                if let reason = Self.refusal(key: key, entry: entry) {
                    skipped[key] = reason
                } else {
                    entries[key] = entry
                }
            }
        }

        /// Why `entry` may not be taken under `key`, as far as its value goes; `nil` when it may.
        static func refusal(key: String, entry: SyncedEntry) -> String? {
            guard let value = entry.value else { return nil }
            if let problem = value.storageProblem() {
                return "the suite cannot hold its value" + (problem.path.isEmpty ? "" : " (at \(problem.path))") + ": " + problem.reason
            }
            if let reason = SecretGate.refusal(key: key, value: value) {
                return "its value looks like a credential (\(reason)): a credential is never synced"
            }
            return nil
        }
    }

    private var entries: [String: (version: Version, checked: Checked)] = [:]

    init() {}

    /// The replica at `path`, checked: the cached one when the file is the same version; `nil`
    /// when the file is gone.
    mutating func read(_ path: String) throws(SyncError) -> Checked? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let version = Version(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        if let cached = entries[path], cached.version == version { return cached.checked }
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
        let checked = Checked(try ReplicaDocument(parsing: bytes, path: path))
        entries[path] = (version, checked)
        return checked
    }

    /// Forgets the files not in `paths`.
    mutating func keep(only paths: Set<String>) {
        entries = entries.filter { paths.contains($0.key) }
    }
}
