import Foundation
import RizqCore
import RizqJSON
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// Conflict copies of a live suite file (`<suite>.sync-conflict-….json` beside it, as a folder-sync
/// engine makes them when the suite's own folder is synced, or as a restored backup leaves them),
/// merged key by key into the suite and archived.
///
/// A copy has no stamps: its keys count as changed when the copy was last modified (a sync
/// engine keeps modification times). Per key: a key the suite lacks is taken from the copy (nothing a
/// user stored is dropped); a key both hold with different values takes the copy's value only when
/// the copy is newer than the key's own change time — the key's sync stamp when it is synced,
/// else the suite file's modification time. Merging is idempotent, and an archived copy is not
/// seen again: a second run changes nothing.
public enum SuiteConflictCopies {
    /// The conflict copies of `store`'s suite file, sorted.
    public static func copies(of store: SuiteStore) -> [String] {
        let directory = store.location.directory
        let prefix = store.suiteName + ".sync-conflict-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            (name.hasPrefix(prefix) || (name.hasPrefix(store.suiteName + " (") && name.contains("conflicted copy"))) && name.hasSuffix(".json")
        }.sorted().map { directory + "/" + $0 }
    }

    /// Merges every conflict copy of `store`'s suite (see the type) and archives it under
    /// `<root>/sync/conflicts/`, or, with `dryRun`, only says what would change.
    /// `changeTime` gives a key's own change time in milliseconds since 1970 when known (its
    /// sync stamp, also a deletion's); other keys count as changed at the suite file's
    /// modification time.
    public static func merge(
        into store: SuiteStore, dryRun: Bool, changeTime: (String) -> Int64? = { _ in nil }
    ) throws(SyncError) -> [ConflictCopyMerge] {
        try merge(into: store, dryRun: dryRun, changeTime: changeTime) { _, _, _ in }
    }

    /// ``merge(into:dryRun:changeTime:)``, telling `taken` each value taken from a copy with the
    /// copy's modification time (milliseconds since 1970).
    static func merge(
        into store: SuiteStore, dryRun: Bool, changeTime: (String) -> Int64?, taken: (String, PrefValue, Int64) -> Void
    ) throws(SyncError) -> [ConflictCopyMerge] {
        let suiteTime = modificationMilliseconds(store.location.path) ?? 0
        var results: [ConflictCopyMerge] = []
        for path in copies(of: store) {
            guard let copyTime = modificationMilliseconds(path) else { continue }
            // One copy that cannot be read (a link, a FIFO, not JSON) is skipped, and said so:
            // the others are merged all the same.
            let entries: [String: PrefValue]
            do {
                entries = try read(path)
            } catch {
                results.append(ConflictCopyMerge(path: path, kind: .suite, changedKeys: [], archivedTo: nil, skipped: ReplicaFolder.reason(error)))
                continue
            }
            _ = store.synchronize()
            let live = store.entries
            var changes: [(key: String, value: PrefValue)] = []
            for key in entries.keys.sorted() {
                guard let value = entries[key] else { continue }
                guard let current = live[key] else {
                    // Absent here: taken, unless it was deleted after the copy was made.
                    if let deleted = changeTime(key), deleted >= copyTime { continue }
                    changes.append((key, value))
                    continue
                }
                if current != value, copyTime > (changeTime(key) ?? suiteTime) { changes.append((key, value)) }
            }
            var archived: String?
            if !dryRun {
                if !changes.isEmpty {
                    do {
                        try store.commit { batch in
                            for change in changes { try batch.set(change.value, forKey: change.key) }
                        }
                    } catch let error as SuiteStoreError {
                        throw .storage(error)
                    } catch {
                        throw .storage(.writeFailed(path: store.location.path, reason: "\(error)"))
                    }
                    for change in changes { taken(change.key, change.value, copyTime) }
                }
                archived = ConflictArchive(paths: SyncPaths(store: store)).archive(path)
            }
            results.append(ConflictCopyMerge(path: path, kind: .suite, changedKeys: changes.map(\.key), archivedTo: archived))
        }
        return results
    }

    /// The copy's keys and values (its schema version, if any, left out): read as a suite file
    /// is (RizqCore's ``PrivateFile``: never through a link — a sync engine carries links, and one
    /// named like a copy could point at another app's suite or a secrets file — never a FIFO or
    /// device, only this user's file that others cannot write, at most the size of a suite file).
    private static func read(_ path: String) throws(SyncError) -> [String: PrefValue] {
        let bytes: [UInt8]
        do {
            guard let read = try PrivateFile.read(path, trust: .settings("conflict copy"), limit: SuiteStore.fileSizeLimit) else {
                throw SyncError.unreadableReplica(path: path, reason: "it is gone")
            }
            bytes = read.bytes
        } catch let error as FileError {
            throw .unreadableReplica(path: path, reason: error.reason)
        } catch {
            throw .unreadableReplica(path: path, reason: "\(error)")
        }
        let parsed: PrefValue
        do {
            parsed = try JSONReader.parseSuiteDocument(bytes).value
        } catch {
            throw .unreadableReplica(path: path, reason: "it is not valid JSON (\(error))")
        }
        guard case .dictionary(var entries) = parsed else {
            throw .unreadableReplica(path: path, reason: "its top level is not a JSON object")
        }
        entries.removeValue(forKey: "$schemaVersion")
        return entries
    }

    static func modificationMilliseconds(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
    }
}
