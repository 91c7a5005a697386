import Dispatch
import Foundation
import Logging
import Synchronization

/// One open suite: its ``SuiteReplica`` (what this process knows of it) joined to its
/// ``SuiteFile``. Every ``SuiteStore`` of this process that names the file shares it
/// (``SuiteRegistry``).
///
/// It owns the order of file work: writes, reloads, commits and reverts run one at a time on
/// its serial `queue`, and whatever touches the file's contents does so under the file lock.
/// The replica decides what to write; this type reads and writes the file around the
/// replica's transitions:
///
/// - a `set` changes the replica and schedules a coalesced write (``set(_:forKey:)``);
/// - the write path (``write(_:)``): under the file lock, take the pending changes and their plan
///   from the replica, turn them into bytes, replace the file, report done or failed;
/// - another process's write: ``FileWatcher`` calls ``fileChanged()``, and ``reloadIfChanged()``
///   reads the new file into the replica.
final class SuiteBackend: Sendable {
    static let coalescingDelay: DispatchTimeInterval = .milliseconds(50)
    static let logger = Logger.rizqPrefs

    let location: SuiteLocation
    let file: SuiteFile
    /// What this process knows of the suite: the façade reads it directly.
    let replica = SuiteReplica()
    /// Where writes, reloads, commits and reverts take turns.
    let queue: DispatchQueue
    /// Set when the file could not be opened: the suite then lives in memory only, and every
    /// write reports this error instead of risking the user's file.
    let openError: SuiteStoreError?
    private let opening: Mutex<Opening>

    /// Where the suite is in being opened (``open()``).
    private enum Opening {
        case notYet
        /// Open; where a damaged file found at open was moved aside, and why.
        case open(movedAside: (path: String, reason: String)?)
        case failed(SuiteStoreError)
    }

    /// A suite to open (``open()``): no file is touched yet.
    init(location: SuiteLocation) {
        self.location = location
        file = SuiteFile(location: location)
        queue = DispatchQueue(label: "RizqPrefs.suite." + location.suiteName)
        openError = nil
        opening = Mutex(.notYet)
    }

    /// A suite that could not be opened: values live in memory only and every write fails
    /// with `error`, so that nothing overwrites a file that could not be read.
    init(unopenable location: SuiteLocation, error: SuiteStoreError) {
        self.location = location
        file = SuiteFile(location: location)
        queue = DispatchQueue(label: "RizqPrefs.suite." + location.suiteName)
        openError = error
        opening = Mutex(.open(movedAside: nil))
    }

    /// Reads (or repairs) the file and starts watching it, once: later calls return at once, or
    /// wait while another thread opens this suite; a failure is final for this backend (the
    /// registry then forgets it, so that the next open tries afresh).
    func open() throws(SuiteStoreError) {
        let result: Result<Void, SuiteStoreError> = opening.withLock { opening in
            switch opening {
            case .open: return .success(())
            case .failed(let error): return .failure(error)
            case .notYet: break
            }
            do throws(SuiteStoreError) {
                file.removeStaleTemporaries()
                let loaded = try file.loadRepairing()
                replica.start(with: loaded.entries, stamp: loaded.stamp, schemaVersion: loaded.schemaVersion)
                opening = .open(movedAside: loaded.movedAside)
                Self.logger.debug("opened suite", metadata: [
                    "suite": "\(location.suiteName)", "path": "\(location.path)", "keys": "\(loaded.entries.count)",
                    "file": "\(loaded.stamp == nil ? "new" : "read")",
                ])
            } catch {
                opening = .failed(error)
                return .failure(error)
            }
            if (try? file.ensureDirectory()) != nil {
                FileWatcher.shared.watch(folder: location.directory, fileName: location.suiteName + ".json") { [weak self] in
                    self?.fileChanged()
                }
            }
            return .success(())
        }
        try result.get()
    }

    /// Where a damaged file found at open was moved aside, and why it was judged damaged.
    var movedAsideAtOpen: (path: String, reason: String)? {
        opening.withLock { opening in
            guard case .open(let movedAside) = opening else { return nil }
            return movedAside
        }
    }

    // MARK: Local changes: memory at once, the file later

    func set(_ value: PrefValue?, forKey key: String) {
        if replica.change(key, to: value) { scheduleWrite() }
    }

    /// Applies several changes at once: other threads, and other processes, see all or none.
    func apply(_ changes: [(key: String, value: PrefValue?)], replacingAll: Bool) {
        if replica.apply(changes, replacingAll: replacingAll) { scheduleWrite() }
    }

    var hasPendingChanges: Bool { replica.hasPendingChanges }

    private func scheduleWrite() {
        queue.asyncAfter(deadline: .now() + Self.coalescingDelay) { [self] in
            do {
                try writePending()
            } catch {
                Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
            }
        }
    }

    // MARK: The write path

    /// Writes pending changes now; returns when they are durable.
    func flush() throws(SuiteStoreError) {
        try onQueue { () throws(SuiteStoreError) in try writePending() }
    }

    /// Runs on `queue`: writes what is pending, under the file lock.
    func writePending() throws(SuiteStoreError) {
        guard replica.claimScheduledWrite() else { return }
        if let openError { throw openError }
        try file.withLock { lock throws(SuiteStoreError) in try write(lock) }
    }

    /// The write path, under the file lock (`lock`), on `queue`: the replica hands over its
    /// pending changes with their plan; they become bytes (``EncodedSuite``) that replace the
    /// file (``SuiteFile/replace(bytes:over:_:)``) if it is still the version they were made
    /// over; the replica learns that the write was done, or that it failed (its changes are then
    /// pending again). When the lock file was taken from under us, or a program that does not
    /// lock replaced the file meanwhile, nothing was written: the changes are taken again, over
    /// the file as it is then.
    func write(_ lock: borrowing SuiteFile.Lock) throws(SuiteStoreError) {
        // Each round needs another program to replace the file or the lock file during it; a
        // bound only against one that does so without end.
        for _ in 0..<1_000 {
            guard let write = try replica.beginWrite(ifFileIs: file.stamp()) else { return }
            let outcome: SuiteFile.Replacement
            do throws(SuiteStoreError) {
                outcome = try carryOut(write, lock)
            } catch {
                replica.writeFailed(write)
                throw error
            }
            switch outcome {
            case .replaced:
                return
            case .lockLost:
                replica.writeFailed(write)
                try file.retake(lock)
            case .fileChanged:
                replica.writeFailed(write)
            }
        }
        throw .writeFailed(path: location.path, reason: "the file keeps being replaced by another program while this process writes it; stop that program and flush again")
    }

    /// One attempt of ``write(_:)``; the replica hears of it only when the bytes went in.
    private func carryOut(_ write: SuiteWrite, _ lock: borrowing SuiteFile.Lock) throws(SuiteStoreError) -> SuiteFile.Replacement {
        switch write.plan {
        case .encoded(let encoded):
            let outcome = try file.replace(bytes: encoded.bytes, times: file.changeTimes().adding(write.changes, now: PendingChange.now()), over: write.over, lock)
            if case .replaced(let stamp) = outcome {
                replica.writeDone(encoded: encoded, stamp: stamp)
                logWrite(bytes: encoded.bytes.count, how: "changed values")
            }
            return outcome
        case .encodeWhole(let table, let order, let schemaVersion):
            let encoded = try EncodedSuite(suite: table, reusing: order, schemaVersion: schemaVersion)
            let outcome = try file.replace(bytes: encoded.bytes, times: file.changeTimes().adding(write.changes, now: PendingChange.now()), over: write.over, lock)
            if case .replaced(let stamp) = outcome {
                replica.writeDone(encoded: encoded, stamp: stamp)
                logWrite(bytes: encoded.bytes.count, how: "whole")
            }
            return outcome
        case .merge:
            var loaded = try file.load(lock)
            if loaded.movedAside != nil {
                // The file was damaged: what this process holds is written whole, not merged
                // into nothing.
                replica.fileMovedAside()
                return .fileChanged
            }
            loaded.bytes = nil
            let merged = write.merged(into: loaded.entries, changedAt: loaded.times)
            // The other process's file decides the schema version: a write never changes it.
            let encoded = try EncodedSuite(suite: merged, reusing: nil, schemaVersion: loaded.schemaVersion)
            let outcome = try file.replace(bytes: encoded.bytes, times: loaded.times.adding(write.changes, now: PendingChange.now()), over: loaded.stamp, lock)
            if case .replaced(let stamp) = outcome {
                replica.fileRewritten(to: merged, encoded: encoded, stamp: stamp, schemaVersion: loaded.schemaVersion)
                logWrite(bytes: encoded.bytes.count, how: "merged with another process's write")
            }
            return outcome
        }
    }

    private func logWrite(bytes: Int, how: String) {
        Self.logger.debug("wrote suite", metadata: [
            "suite": "\(location.suiteName)", "path": "\(location.path)", "bytes": "\(bytes)", "encoding": "\(how)",
        ])
    }

    /// Runs `body` on `queue` and waits for it.
    func onQueue<T>(_ body: () throws(SuiteStoreError) -> T) throws(SuiteStoreError) -> T {
        let result: Result<T, SuiteStoreError> = queue.sync {
            do throws(SuiteStoreError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Other processes' writes

    /// Picks up what other processes wrote, now, without waiting for inotify.
    func refresh() {
        queue.sync { reloadIfChanged() }
    }

    /// Called on the watcher thread when the suite file may have changed.
    private func fileChanged() {
        guard replica.claimReload() else { return }
        queue.async { [self] in
            replica.reloadStarted()
            reloadIfChanged()
        }
    }

    /// Re-reads the file if another process replaced it. Runs on `queue`, so never at the same
    /// time as this process's own write.
    func reloadIfChanged() {
        guard openError == nil else { return }
        do {
            guard try file.stamp() != replica.stamp else { return }
            let other = try file.loadRepairing()
            if other.movedAside != nil {
                // Broken by hand under a running app: the damaged file is kept aside, and what
                // this process holds is not emptied; its next write puts it all back.
                replica.fileMovedAside()
                return
            }
            replica.absorb(other.entries, stamp: other.stamp, schemaVersion: other.schemaVersion, times: other.times)
            Self.logger.debug("read another process's write", metadata: [
                "suite": "\(location.suiteName)", "path": "\(location.path)", "keys": "\(other.entries.count)",
            ])
        } catch {
            Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
        }
    }
}
