import Dispatch
import Foundation
import Logging
import Synchronization

/// The in-memory state of one suite file, shared by every ``SuiteStore`` of this process that
/// names it.
///
/// Reads come from `values` (the file as last read, with this process's pending changes on
/// top). A `set` changes `values` at once, records the change in `pending`, and schedules a
/// coalesced write. The write (on `queue`, under the file lock) re-reads the file if another
/// process replaced it, applies only `pending`, key by key, and replaces the file. Changes by
/// other processes arrive through ``FileWatcher`` and are merged the same way.
final class SuiteBackend: Sendable {
    static let coalescingDelay: DispatchTimeInterval = .milliseconds(50)
    static let logger = Logger(label: "RizqPrefs")

    let location: SuiteLocation
    let file: SuiteFile
    let state: Mutex<SuiteState>
    let queue: DispatchQueue
    /// Set when the file could not be opened: the suite then lives in memory only, and every
    /// write reports this error instead of risking the user's file.
    let openError: SuiteStoreError?
    /// Where a damaged file found at open was moved aside, and why it was judged damaged.
    let movedAsideAtOpen: (path: String, reason: String)?

    /// Opens the suite: reads (or repairs) its file and starts watching it.
    init(location: SuiteLocation) throws(SuiteStoreError) {
        self.location = location
        file = SuiteFile(location: location)
        queue = DispatchQueue(label: "RizqPrefs.suite." + location.suiteName)
        openError = nil
        file.removeStaleTemporaries()
        let loaded = try Self.load(file, lockForRepair: true)
        movedAsideAtOpen = loaded.movedAside
        state = Mutex(SuiteState(values: loaded.entries, stamp: loaded.stamp))
        if (try? file.ensureDirectory()) != nil {
            FileWatcher.shared.watch(folder: location.directory, fileName: location.suiteName + ".json") { [weak self] in
                self?.fileChanged()
            }
        }
    }

    /// A suite that could not be opened: values live in memory only and every write fails
    /// with `error`, so that nothing overwrites a file that could not be read.
    init(unopenable location: SuiteLocation, error: SuiteStoreError) {
        self.location = location
        file = SuiteFile(location: location)
        queue = DispatchQueue(label: "RizqPrefs.suite." + location.suiteName)
        openError = error
        movedAsideAtOpen = nil
        state = Mutex(SuiteState(values: SuiteTable(), stamp: nil))
    }

    // MARK: Reading and writing values

    func value(forKey key: String) -> PrefValue? {
        state.withLock { $0.values[key] ?? $0.registered[key] }
    }

    func set(_ value: PrefValue?, forKey key: String) {
        state.withLock { state in
            state.change(key, to: value, at: PendingChange.now())
            scheduleWrite(&state)
        }
    }

    /// Applies several changes at once: other threads, and other processes, see all or none.
    func apply(_ changes: [(key: String, value: PrefValue?)], replacingAll: Bool) {
        state.withLock { state in
            let now = PendingChange.now()
            if replacingAll {
                let before = state.values
                state.clearAll(at: now)
                state.values = SuiteTable()
                // One notification per key that changes, not a removal and a re-add.
                let observers = state.observers
                state.observers = [:]
                for (key, value) in changes { state.change(key, to: value, at: now) }
                state.observers = observers
                let after = state.values
                state.values = before
                state.replaceValues(with: after, origin: .local)
            } else {
                for (key, value) in changes { state.change(key, to: value, at: now) }
            }
            scheduleWrite(&state)
        }
    }

    func register(_ defaults: [String: PrefValue]) {
        state.withLock { $0.registered.merge(defaults) { _, new in new } }
    }

    // MARK: Observing

    func addObserver(key: String?, _ callback: @escaping @Sendable (SuiteChange) -> Void) -> UInt64 {
        state.withLock { state in
            state.nextObserverID += 1
            state.observers[state.nextObserverID] = SuiteState.Observer(key: key, callback: callback)
            return state.nextObserverID
        }
    }

    func removeObserver(_ id: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: id) }
    }

    // MARK: Disk

    /// Writes pending changes now; returns when they are durable.
    func flush() throws(SuiteStoreError) {
        let result: Result<Void, SuiteStoreError> = queue.sync {
            do throws(SuiteStoreError) {
                try writePending()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Picks up what other processes wrote, now, without waiting for inotify.
    func refresh() {
        queue.sync { reloadIfChanged() }
    }

    var hasPendingChanges: Bool {
        state.withLock { $0.hasPendingChanges }
    }

    private func scheduleWrite(_ state: inout SuiteState) {
        guard !state.writeScheduled else { return }
        state.writeScheduled = true
        queue.asyncAfter(deadline: .now() + Self.coalescingDelay) { [self] in
            do {
                try writePending()
            } catch {
                Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
            }
        }
    }

    /// How a write turns this process's state into the file's bytes.
    private enum Plan {
        /// Nobody else wrote since this process last read or wrote the file, and only values
        /// changed since its last write: the new bytes, encoded under the state lock from the
        /// last ones (copying the rest), so that no copy of the table is kept meanwhile.
        case image(SuiteImage)
        /// Nobody else wrote, but keys were added or removed: encode this table whole.
        case encode(SuiteTable, previous: SuiteImage?)
        /// Another process replaced the file: merge the pending changes into what it wrote.
        case merge
    }

    /// The pending changes a write took out of the state (put back if it fails), and its plan.
    private struct Taken {
        var pending: [String: PendingChange]
        var clear: PendingClear?
        var plan: Plan
    }

    /// Runs on `queue`. `holdingLock`: the caller already holds the file lock (a second
    /// `flock` from this process would wait for itself).
    func writePending(holdingLock: Bool = false) throws(SuiteStoreError) {
        let hasWork = state.withLock { state -> Bool in
            state.writeScheduled = false
            return state.hasPendingChanges
        }
        guard hasWork else { return }
        if let openError { throw openError }
        let write = { [self] () throws(SuiteStoreError) in
            let current = try file.stamp()
            guard let taken = try take(ifFileIs: current) else { return }
            do throws(SuiteStoreError) {
                switch taken.plan {
                case .image(let image):
                    try replaceFile(with: image)
                case .encode(let table, let previous):
                    try replaceFile(with: Self.encode(table, after: previous))
                case .merge:
                    let (newDisk, newDiskStamp) = try Self.load(file, lockForRepair: false).parsed
                    var pending = taken.pending
                    var clear = taken.clear
                    SuiteState.reconcile(
                        newDisk: newDisk, fileTime: newDiskStamp?.modifiedTime ?? PendingChange.now(), pending: &pending, clear: &clear)
                    let merged = SuiteState.applying(pending, clear: clear, to: newDisk)
                    let image = try Self.encode(merged, after: nil)
                    let newStamp = try file.replace(bytes: image.bytes)
                    state.withLock { state in
                        state.wrote(merged, stamp: newStamp)
                        // Changes made meanwhile were applied to `merged`'s table: the next
                        // write can still start from this image.
                        state.image = image
                    }
                }
            } catch {
                putBack(taken)
                throw error
            }
        }
        if holdingLock { try write() } else { try file.withLock(write) }
    }

    /// Takes the pending changes out of the state and plans their write; `current` is the
    /// file's version now. `nil` when nothing is pending.
    private func take(ifFileIs current: FileStamp?) throws(SuiteStoreError) -> Taken? {
        try state.withLock { state throws(SuiteStoreError) -> Taken? in
            guard state.hasPendingChanges else { return nil }
            var plan = Plan.merge
            if current == state.stamp {
                if let previous = state.image, let updated = try Self.update(previous, to: state.values) {
                    plan = .image(updated)
                } else {
                    plan = .encode(state.values, previous: state.image)
                }
            }
            let taken = Taken(pending: state.pending, clear: state.clear, plan: plan)
            // Room for as many changes as this write took (up to a point): the next burst of sets
            // is likely as large, and growing a dictionary key by key rehashes it a dozen times.
            state.pending = Dictionary(minimumCapacity: Swift.min(taken.pending.count, 1 << 14))
            state.clear = nil
            return taken
        }
    }

    /// Replaces the file with `image`, which memory already holds, and keeps it for the next write.
    private func replaceFile(with image: SuiteImage) throws(SuiteStoreError) {
        let newStamp = try file.replace(bytes: image.bytes)
        state.withLock { state in
            state.stamp = newStamp
            state.image = image
            if state.values.layoutID == image.order.layoutID, state.values.changeLogID == image.changeLogID {
                state.values.forgetChanges(before: image.changeLogEnd)
            }
        }
    }

    /// A write failed: its changes are pending again, under any made meanwhile.
    private func putBack(_ taken: Taken) {
        state.withLock { state in
            for (key, change) in taken.pending {
                if state.pending[key] == nil {
                    state.pending[key] = change
                } else {
                    // The newer change was made over our unwritten one: the file still
                    // holds what the older change was made over.
                    state.pending[key]?.base = change.base
                }
            }
            if let cleared = taken.clear, state.clear == nil {
                state.clear = cleared
                for key in Array(state.pending.keys) where taken.pending[key] == nil {
                    state.pending[key]?.base = cleared.before[key]
                }
            }
        }
    }

    /// The file's bytes for `table`: from `previous` (what this process last wrote) when only
    /// values changed since, else encoded whole.
    static func encode(_ table: SuiteTable, after previous: SuiteImage?) throws(SuiteStoreError) -> SuiteImage {
        if let previous, let updated = try update(previous, to: table) { return updated }
        do {
            return try SuiteImage(encoding: table, order: table.order(reusing: previous?.order))
        } catch {
            throw .invalid(error)
        }
    }

    /// `previous` brought up to `table` when only values changed since (``SuiteImage/updated(to:)``).
    static func update(_ previous: SuiteImage, to table: SuiteTable) throws(SuiteStoreError) -> SuiteImage? {
        do {
            return try previous.updated(to: table)
        } catch {
            throw .invalid(error)
        }
    }

    /// Called on the watcher thread when the suite file may have changed.
    private func fileChanged() {
        let schedule = state.withLock { state -> Bool in
            guard !state.reloadScheduled else { return false }
            state.reloadScheduled = true
            return true
        }
        guard schedule else { return }
        queue.async { [self] in
            state.withLock { $0.reloadScheduled = false }
            reloadIfChanged()
        }
    }

    /// Re-reads the file if another process replaced it. Runs on `queue`, so never at the same
    /// time as this process's own write.
    func reloadIfChanged() {
        guard openError == nil else { return }
        do {
            let known = state.withLock { $0.stamp }
            guard try file.stamp() != known else { return }
            let (disk, stamp) = try Self.load(file, lockForRepair: true).parsed
            state.withLock { $0.absorb(disk, stamp: stamp) }
        } catch {
            Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
        }
    }

    /// What ``load(_:lockForRepair:)`` found.
    struct Loaded {
        /// The file's top-level object; empty when there is no file.
        var entries = SuiteTable()
        /// The version read; `nil` when there is no file.
        var stamp: FileStamp?
        /// The bytes `entries` were parsed from, exactly; `nil` when there is no file.
        var bytes: [UInt8]?
        /// Where a damaged file was moved aside, and why it was judged damaged.
        var movedAside: (path: String, reason: String)?

        /// The entries and their version, without the bytes (a temporary: the bytes are freed
        /// at once, not held through the caller's work).
        var parsed: (SuiteTable, FileStamp?) { (entries, stamp) }
    }

    /// Reads the file; a damaged one is moved aside (under the file lock unless the caller
    /// holds it already) and reads as empty.
    static func load(_ file: SuiteFile, lockForRepair: Bool) throws(SuiteStoreError) -> Loaded {
        switch try file.read() {
        case .missing:
            return Loaded()
        case .entries(let entries, let stamp, let bytes):
            return Loaded(entries: entries, stamp: stamp, bytes: bytes)
        case .damaged(let firstReason, let firstStamp):
            let repair = { () throws(SuiteStoreError) -> Loaded in
                var reason = firstReason
                var stamp = firstStamp
                // Another process may replace the file while we look; never write over a
                // damaged version, and give up rather than loop.
                for _ in 0..<3 {
                    // A writer that does not replace atomically (an editor saving in place)
                    // may be half-way through: give it a moment before judging the file.
                    usleep(100_000)
                    if let moved = try file.quarantine(expecting: stamp) {
                        logger.warning(
                            "suite file \(file.location.path) is damaged (\(reason)); moved it aside to \(moved) and started the suite empty; restore it by hand if you need its contents",
                            metadata: ["suite": "\(file.location.suiteName)"])
                        return Loaded(movedAside: (moved, reason))
                    }
                    switch try file.read() {
                    case .missing: return Loaded()
                    case .entries(let entries, let newStamp, let bytes): return Loaded(entries: entries, stamp: newStamp, bytes: bytes)
                    case .damaged(let newReason, let newStamp): (reason, stamp) = (newReason, newStamp)
                    }
                }
                throw .unreadable(path: file.location.path, reason: "it is damaged (\(reason)) and keeps changing")
            }
            return lockForRepair ? try file.withLock(repair) : try repair()
        }
    }
}
