import RizqCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension SuiteFile {
    /// The suite's ``ChangeLog``: `.<suite>.changes` beside the file (hidden, like the lock file).
    var changeLogPath: String { location.directory + "/." + location.suiteName + ".changes" }

    /// The largest change log read: a log this large is damaged (compaction keeps it near the
    /// size of the last minutes' changes).
    static let changeLogReadLimit = 64 << 20

    /// The change log as it is; empty when there is none (or it cannot be read: the record of
    /// every version is then unknown, and a conflict falls back to the file's modification time).
    func readChangeLog() -> ChangeLog {
        guard let file = try? PrivateFile.open(changeLogPath, trust: .settings("change log")),
            let bytes = try? file.readAll(limit: Self.changeLogReadLimit)
        else { return ChangeLog(segments: []) }
        return ChangeLog(decoding: bytes)
    }

    /// When the keys of the suite file at `stamp` were last changed: its record in the change log,
    /// else every key as old as the file. Only under the suite's lock (shared or not) does the
    /// log match the file: a writer appends the next version's segment before it swaps the file in.
    func changeTimes(of stamp: FileStamp, _ lock: borrowing SuiteFileLock) -> ChangeTimes {
        readChangeLog().times(of: stamp) ?? .unrecorded(modifiedAt: stamp.modifiedTime)
    }

    /// Appends a segment's `bytes` (``ChangeLog/Changes/segmentBytes(version:parent:)``) to the
    /// change log, under the suite's exclusive lock, before the suite file it names is swapped
    /// in. A log grown well past what its recent versions need is first rewritten as the record
    /// of the segment's `parent` (``ChangeLog/compacted(for:now:)``),
    /// atomically. Returns why the segment could not be written (the disk is full, the folder is
    /// read-only), or `nil`; the write goes on either way: its version then has no record, and a
    /// conflict with it falls back to the file's modification time.
    func appendToChangeLog(_ bytes: [UInt8], over parent: FileStamp?, _ lock: borrowing SuiteFileLock) -> String? {
        var info = stat()
        if lstat(changeLogPath, &info) == 0, Int64(info.st_size) > Int64(ChangeLog.compactionSize),
           Int64(info.st_size) >= Int64(compaction.skipBelow.load(ordering: .relaxed)) {
            if let problem = compactChangeLog(appending: bytes, over: parent, size: Int(info.st_size), lock) { return problem }
            return nil
        }
        return appendThroughFileLayer(bytes)
    }

    /// The append itself, through RizqCore's one append (``FileAppend``): never to a FIFO (it
    /// would hang the write), a link, a hard-linked file or another user's; a log made here is
    /// given the suite's owner when a root process makes it.
    private func appendThroughFileLayer(_ bytes: [UInt8]) -> String? {
        do {
            try FileAppend.append(
                bytes, to: changeLogPath, trust: .settings("change log"), owner: geteuid() == 0 ? ownerOfSuiteFiles : nil,
                sizeLimit: Self.changeLogReadLimit)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Rewrites the change log as the record of `parent` followed by `appended` (a temporary
    /// file renamed over the log), when the log of `size` bytes is more than four times what
    /// that record takes; otherwise only appends. A record that cannot be made (no segment
    /// names `parent`) leaves `appended` alone in the new log.
    private func compactChangeLog(appending appended: [UInt8], over parent: FileStamp?, size: Int, _ lock: borrowing SuiteFileLock) -> String? {
        let log = readChangeLog()
        let base = parent.flatMap { log.compacted(for: $0, now: WallClock.now()) }
        let baseBytes = base.map { $0.segments.flatMap(ChangeLog.encode) } ?? []
        if baseBytes.count * 4 > size {
            // Still mostly what the recent versions need: appending is cheaper than rewriting.
            // Deciding that read and decoded the whole log: not again until it has doubled, so
            // that a large suite's writes cost their own changes, not the log (a 100,000-key
            // suite's first write leaves a 2 MB log, which every write read for ten minutes).
            compaction.skipBelow.store(size * 2, ordering: .relaxed)
            return appendThroughFileLayer(appended)
        }
        do {
            var replacement = try FileReplacement.prepare(
                baseBytes + appended, for: changeLogPath, owner: geteuid() == 0 ? ownerOfSuiteFiles : nil,
                temporaryPrefix: location.directory + "/." + location.suiteName + ".changes.tmp-", subject: "change log")
            _ = try replacement.install(over: .anything, syncFolder: false)
        } catch {
            return error.reason
        }
        return nil
    }
}

/// When the change log was last found not worth compacting, and so below which size it is not
/// read for that again (``SuiteFile/appendToChangeLog(_:over:_:)``): a reference, so that the copies
/// of one ``SuiteFile`` share it.
final class ChangeLogCompactionHint: Sendable {
    /// The log's size from which a compaction is tried again (0: at once).
    let skipBelow = Atomic<Int>(0)
}
