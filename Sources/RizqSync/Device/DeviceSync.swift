import Dispatch
import Foundation
import Logging
import RizqPrefs
import Synchronization

/// One suite synced between the user's devices through a folder that a sync engine shares
/// (Syncthing, or any engine that replaces whole files): the successor of
/// `NSUbiquitousKeyValueStore` and Defaults' iCloud sync on Linux.
///
/// Each device writes only its own replica file (`replica-<device>.json`) in the folder — the
/// synced keys, each with the ``/RizqCore/ChangeStamp`` of its last change, and tombstones for
/// deleted keys — so the engine never sees two writers on one file. Each device merges the
/// others' replicas key by key into its live suite, under the suite's lock and through the
/// suite's own write path, so that apps and other processes see merged values as any change.
/// Per key the newest stamp wins; a value keeps its stamp wherever it travels; a registered
/// default is never published; a value that looks like a credential is never synced.
///
/// ```swift
/// let store = try SuiteStore(suite: "com.example.notes")
/// let sync = try store.enableDeviceSync(DeviceSyncConfiguration(folder: home + "/Sync/notes-settings"))
/// sync.start()                       // merges and publishes by itself from now on
/// for await event in sync.events { … }
/// ```
///
/// A round of sync (``syncNow()``, or each one ``start()`` runs on its own) records the
/// suite's local changes of synced keys, merges every replica in the folder, applies what
/// other devices changed to the suite, saves the sync state, and publishes this device's
/// replica. A new device publishes nothing until it has merged another device's replica
/// (``SyncStatus/initialSync``), unless it is the first device; values its suite held before
/// sync count as older than any change made since, so a new device never overwrites the
/// others' values, while what it writes meanwhile keeps the stamps it was written with.
public final class DeviceSync: Sendable {
    /// The suite synced.
    public let store: SuiteStore
    /// This device's replica id: the origin of its stamps, and the name of its replica file.
    public let replicaID: String

    let paths: SyncPaths
    let stateFile: SyncFile
    let clock: HybridLogicalClock
    let hub = EventHub()
    let local = Mutex(Local())
    let queue: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    static let logger = Logger(label: "rizq-prefs.sync")

    /// What this process keeps in memory between rounds.
    struct Local {
        /// The state as the last round saved or read it.
        var snapshot: SyncState?
        /// Local changes of synced keys this process saw, with the stamp given when it saw them,
        /// not yet recorded by a round.
        var pending: [String: SyncedEntry] = [:]
        var cache = ReplicaCache()
        var watcher: FolderWatcher?
        var observer: Task<Void, Never>?
        var retry: RetryTimer?
        var running = false
        var roundScheduled = false
        var reportedRefusals: [String: PrefValue] = [:]
        var reportedStale: Set<String> = []
        /// Files and values skipped, reported once each (path, key and reason).
        var reportedUnreadable: Set<String> = []
        /// Merges decided by a clock, reported once each (key and both stamps).
        var reportedLosses: Set<String> = []
        /// Clock skews reported, by device (the offset in warning-sized steps).
        var reportedSkews: [String: Int64] = [:]
        /// The state's entries already judged by the credential rule and the suite's limits,
        /// by key and stamp (``repair(_:)`` judges each once).
        var vetted: [String: ChangeStamp] = [:]
        /// What each entry takes in the state, by key and stamp (the merge's size budget).
        var entrySizes: [String: (stamp: ChangeStamp, bytes: Int)] = [:]
        var lastStatus: SyncStatus?
        /// What the last round wrote into the suite, key by key, until the observer has seen it
        /// (the change stream delivers it later): not taken for a local change.
        var applied: [String: PrefValue?] = [:]
        /// The sizes of synced values, for the limits.
        var sizes = SizeCache()
        /// Keys this process added to the listed keys (``UbiquitousKeyValueStore``), so that
        /// the state is written once per key.
        var listed: Set<String> = []
    }

    /// The device sync of a suite whose sync was enabled (`rizq-prefs sync enable`, or
    /// ``RizqPrefs/SuiteStore/enableDeviceSync(_:replicaID:)``). `replicaID` names this device
    /// (default: this machine's ``/RizqCore/ReplicaIdentity``).
    /// - Throws: ``SyncError/notEnabled(suite:)``, or why the state cannot be read.
    public convenience init(store: SuiteStore, replicaID: String? = nil) throws(SyncError) {
        try self.init(opening: store, replicaID: replicaID)
        guard let state = try loadState() else { throw .notEnabled(suite: store.suiteName) }
        for entry in state.entries.values { clock.observe(entry.stamp) }
        local.withLock { $0.snapshot = state }
    }

    init(opening store: SuiteStore, replicaID: String?) throws(SyncError) {
        let id: String
        if let replicaID {
            guard ReplicaIdentity.isValid(replicaID) else { throw .replicaIdentity(reason: ReplicaIdentityError.invalid(replicaID).description) }
            id = replicaID
        } else {
            do {
                id = try ReplicaIdentity.current()
            } catch {
                throw .replicaIdentity(reason: error.description)
            }
        }
        self.store = store
        self.replicaID = id
        SyncStateMove.prepare(forSuitesRoot: store.location.root)
        paths = SyncPaths(store: store)
        do {
            stateFile = try SyncFile(directory: paths.stateDirectory, name: store.suiteName, subject: "sync state")
        } catch {
            throw .storage(error)
        }
        clock = HybridLogicalClock(origin: id)
        queue = DispatchQueue(label: "rizq-prefs.sync." + store.suiteName)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        stopWatching()
        hub.finish()
    }

    // MARK: Reading the state

    /// The configuration in force (as the sync state holds it now).
    public var configuration: DeviceSyncConfiguration {
        get throws(SyncError) { try requireState().configuration }
    }

    /// The keys synced: the listed ones and, when the configuration says so, those marked
    /// `sync: true` (in this process, or remembered from the apps that marked them).
    public var syncedKeys: Set<String> {
        get throws(SyncError) {
            let state = try requireState()
            return state.configuration.includesMarkedKeys ? state.syncedKeys.union(store.keysMarkedForSync) : state.syncedKeys
        }
    }

    /// Each synced key's entry as this device knows it: value or tombstone, and stamp.
    public var entries: [String: SyncedEntry] {
        get throws(SyncError) { try requireState().entries }
    }

    /// The other devices whose replicas this device has merged, with the newest stamp of each.
    public var devices: [String: ChangeStamp] {
        get throws(SyncError) { try requireState().devices }
    }

    /// Where this device's replica file is.
    public var replicaPath: String {
        get throws(SyncError) { try ReplicaFolder(path: requireState().configuration.folder).replicaFile(replicaID).path }
    }

    /// Where the sync state of the suite is kept (private to this device).
    public var statePath: String { stateFile.path }

    /// Every event from now on: merges (with Apple's change reasons), publishes, refusals,
    /// conflict copies merged, status changes. Each call gives a stream of its own.
    public var events: AsyncStream<SyncEvent> { hub.stream() }

    /// Where sync stands now: the folder, the engine, the initial sync (``SyncStatus``).
    /// Checking Syncthing's REST API, when configured, takes a request to it.
    public var status: SyncStatus {
        guard let state = try? requireState() else { return .initialSync }
        return Self.status(of: state)
    }

    /// The status as far as this process knows it without looking at the folder or the engine:
    /// ``SyncStatus/initialSync`` until this device publishes.
    var localStatus: SyncStatus {
        let state = local.withLock { $0.snapshot } ?? (try? loadState())
        guard let state, state.publishes else { return .initialSync }
        return .upToDate(lastMerge: state.lastMerge.map { Date(timeIntervalSince1970: Double($0) / 1000) })
    }

    static func status(of state: SyncState) -> SyncStatus {
        let folder = state.configuration.folder
        if !ReplicaFolder(path: folder).exists { return .folderMissing(path: folder) }
        if let problem = EngineProbe(check: state.configuration.engineCheck, folder: folder).problem() {
            return .engineNotRunning(reason: problem)
        }
        if !state.publishes { return .initialSync }
        return .upToDate(lastMerge: state.lastMerge.map { Date(timeIntervalSince1970: Double($0) / 1000) })
    }

    func loadState() throws(SyncError) -> SyncState? {
        let bytes: [UInt8]?
        do {
            bytes = try stateFile.read()
        } catch {
            throw .storage(error)
        }
        guard let bytes else { return nil }
        return try parseState(bytes)
    }

    /// The state in `bytes`, without what it must not keep (``repair(_:)``: a stamp beyond the
    /// clock's maximum offset, a credential). The next save writes it so.
    func parseState(_ bytes: [UInt8]) throws(SyncError) -> SyncState {
        var state = try SyncState(parsing: bytes, path: stateFile.path)
        _ = repair(&state)
        return state
    }

    // MARK: Clocks

    /// How far a device's stamps may be from this device's clock before it is reported
    /// (``ClockSkew``, ``SyncReport/clockSkews``, `rizq-prefs sync status` and `doctor`): one
    /// minute — more than a replica takes to travel, less than an offset that decides edits
    /// people make one after the other.
    public static let clockWarningOffset: Duration = .seconds(60)

    /// ``clockWarningOffset`` in milliseconds.
    static var clockWarningMilliseconds: Int64 { 60_000 }

    /// The devices (this one included) whose stamps are far from this device's clock, as the
    /// last round measured them (``ClockSkew``).
    public var clockSkews: [ClockSkew] {
        get throws(SyncError) { clockSkews(of: try requireState()) }
    }

    /// The keys whose last merge was decided by a clock that is off, with the explanation
    /// (the edit that lost was made later, once the clocks' offset is taken out).
    public var decidedByClock: [String: String] {
        get throws(SyncError) { try requireState().clockLosses }
    }

    func requireState() throws(SyncError) -> SyncState {
        guard let state = try loadState() else { throw .notEnabled(suite: store.suiteName) }
        return state
    }

    // MARK: Changing synced keys

    /// Stores `value` under the synced key `key` (`nil` removes it) and stamps the change now;
    /// it is published by the next round (at once when ``start()`` runs). Refused, with nothing
    /// written anywhere, when the value looks like a credential or would exceed the limits.
    /// - Throws: ``SyncError/secretRefused(key:reason:)``, ``SyncError/quotaExceeded(key:limit:)``
    ///   (the event ``SyncEvent/quotaExceeded(key:limit:)`` is sent too),
    ///   ``SyncError/keyNotSynced(key:)``, or ``SyncError/storage(_:)`` for a value a suite
    ///   cannot hold.
    public func set(_ value: PrefValue?, forKey key: String) throws(SyncError) {
        // The state as this process last read or wrote it: a set reads no file.
        let state: SyncState
        if let snapshot = local.withLock({ $0.snapshot }) {
            state = snapshot
        } else {
            state = try requireState()
            local.withLock { $0.snapshot = state }
        }
        let synced = state.configuration.includesMarkedKeys ? state.syncedKeys.union(store.keysMarkedForSync) : state.syncedKeys
        guard synced.contains(key) else { throw .keyNotSynced(key: key) }
        if let value {
            if let reason = SecretGate.refusal(key: key, value: value) { throw .secretRefused(key: key, reason: reason) }
            if !state.configuration.limits.isUnlimited {
                let live = store.entries
                var others: [String: PrefValue] = [:]
                for name in synced where name != key {
                    if let other = live[name] { others[name] = other }
                }
                let violation = local.withLock { local in
                    state.configuration.limits.violation(setting: value, forKey: key, others: others, sizes: &local.sizes)
                }
                if let limit = violation {
                    hub.emit([.quotaExceeded(key: key, limit: limit)])
                    throw .quotaExceeded(key: key, limit: limit)
                }
            }
        }
        let stamp = clock.now()
        do {
            if let value {
                try store.put(value, forKey: key)
            } else {
                store.removeObject(forKey: key)
            }
        } catch {
            throw .storage(error)
        }
        local.withLock { $0.pending[key] = SyncedEntry(value: value, stamp: stamp) }
        scheduleRound()
    }

    /// Adds keys to the listed keys (a write of the sync state when one is new).
    public func addKeys(_ keys: [String]) throws(SyncError) {
        let missing = local.withLock { local in
            keys.filter { !local.listed.contains($0) && !(local.snapshot?.configuration.keys.contains($0) ?? false) }
        }
        guard !missing.isEmpty else { return }
        try withState { state in
            for key in missing where !state.configuration.keys.contains(key) { state.configuration.keys.append(key) }
        }
        local.withLock { $0.listed.formUnion(missing) }
    }

    /// Runs `change` on the state under its lock and saves it.
    func withState(_ change: (inout SyncState) throws(SyncError) -> Void) throws(SyncError) {
        try locked { current, save throws(SyncError) in
            guard let current else { throw .notEnabled(suite: store.suiteName) }
            var state = try parseState(current)
            try change(&state)
            guard try save(state) else { return }
            local.withLock { $0.snapshot = state }
        }
    }

    /// Runs `body` under the state file's lock, with the state's bytes and a function that
    /// saves a new state. The save returns `false` when the file changed under the body (a
    /// program that does not take the lock wrote it): the body should return at once, and
    /// runs again on the file as it is then. Errors become ``SyncError``s.
    func locked<T>(_ body: (_ current: [UInt8]?, _ save: (SyncState) throws(SyncError) -> Bool) throws(SyncError) -> T) throws(SyncError) -> T {
        do {
            return try stateFile.withLock { current, replace in
                // The save only ever runs inside the body, while `replace` is valid.
                try withoutActuallyEscaping(replace) { replace in
                    try body(current) { (state: SyncState) throws(SyncError) -> Bool in
                        let bytes = try state.encoded()
                        do throws(SuiteStoreError) {
                            return try replace(bytes)
                        } catch {
                            throw .storage(error)
                        }
                    }
                }
            }
        } catch let error as SyncError {
            throw error
        } catch let error as SuiteStoreError {
            throw .storage(error)
        } catch {
            throw .storage(.writeFailed(path: stateFile.path, reason: "\(error)"))
        }
    }

    // MARK: Running

    /// Syncs by itself from now on: a round now, then one after each local change of a synced
    /// key (this process's, or another process's seen through the suite file) and each change
    /// of the folder (a replica arrived). Errors are logged and reported as status events; the
    /// suite keeps working locally whatever happens to the folder.
    public func start() {
        // The user's layer alone: an administrator's values are this machine's, never synced.
        let stream = store.userLayerChanges()
        let begin = local.withLock { local -> Bool in
            guard !local.running else { return false }
            local.running = true
            return true
        }
        guard begin else { return }
        let task = Task.detached { [weak self] in
            for await change in stream {
                guard let self else { return }
                self.localChange(change)
            }
        }
        local.withLock { $0.observer = task }
        watchFolder()
        scheduleRound(after: .milliseconds(0))
    }

    /// Stops syncing by itself (``syncNow()`` still works). A round already running finishes.
    public func stop() {
        local.withLock { $0.running = false }
        stopWatching()
    }

    private func stopWatching() {
        let (watcher, observer, retry) = local.withLock { local in
            defer {
                local.watcher = nil
                local.observer = nil
                local.retry = nil
            }
            return (local.watcher, local.observer, local.retry)
        }
        watcher?.stop()
        observer?.cancel()
        retry?.cancel()
    }

    /// One round now, on the caller's thread: records local changes, merges what the folder
    /// holds, applies other devices' changes to the suite, and publishes this device's replica
    /// (what `rizq-prefs sync now` does). Conflict copies of replicas in the folder are merged
    /// and archived too.
    @discardableResult
    public func syncNow() throws(SyncError) -> SyncReport {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { return try round() }
        let result: Result<SyncReport, SyncError> = queue.sync {
            do throws(SyncError) {
                return .success(try round())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A change of the suite seen by this process: a synced key's new value is stamped now
    /// (unless it is what the state holds already: a merge being applied) and a round follows.
    private func localChange(_ change: SuiteChange) {
        let interesting = local.withLock { local -> Bool in
            if let applied = local.applied.removeValue(forKey: change.key), applied == change.newValue { return false }
            guard let snapshot = local.snapshot else { return true }
            let synced = snapshot.configuration.includesMarkedKeys ? snapshot.syncedKeys.union(store.keysMarkedForSync) : snapshot.syncedKeys
            guard synced.contains(change.key) else { return false }
            if snapshot.entries[change.key]?.value == change.newValue, snapshot.entries[change.key] != nil { return false }
            if local.pending[change.key]?.value == change.newValue, local.pending[change.key] != nil { return true }
            local.pending[change.key] = SyncedEntry(value: change.newValue, stamp: clock.now())
            return true
        }
        if interesting { scheduleRound() }
    }

    /// A round on the sync queue after `delay` (a burst of changes makes one round), unless one
    /// is due already.
    func scheduleRound(after delay: DispatchTimeInterval = .milliseconds(5)) {
        let go = local.withLock { local -> Bool in
            guard local.running, !local.roundScheduled else { return false }
            local.roundScheduled = true
            return true
        }
        guard go else { return }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            self.local.withLock { $0.roundScheduled = false }
            do {
                _ = try self.round()
            } catch {
                Self.logger.error("device sync of suite \(self.store.suiteName) failed: \(error)")
            }
        }
    }

    /// Watches the folder (a replica arrived, a conflict copy appeared); while the folder is
    /// missing, looks again every few seconds.
    private func watchFolder() {
        guard let folder = local.withLock({ $0.snapshot?.configuration.folder }) else { return }
        let own = ReplicaFolder.replicaPrefix + replicaID + ".json"
        let watcher = FolderWatcher(folder: folder) { [weak self] name in
            guard let self else { return }
            guard let name else {
                // The folder went away (unmounted, removed): report it and look for it again.
                self.local.withLock { $0.watcher = nil }
                self.scheduleRound(after: .milliseconds(0))
                self.watchLater()
                return
            }
            if name == own || name.hasPrefix(".") { return }
            if name.isEmpty || name.hasPrefix(ReplicaFolder.replicaPrefix) { self.scheduleRound(after: .milliseconds(0)) }
        }
        if let watcher {
            local.withLock { $0.watcher = watcher }
        } else {
            watchLater()
        }
    }

    private func watchLater() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(2), repeating: .seconds(2))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            guard self.local.withLock({ $0.running }) else { return }
            let folder = self.local.withLock { $0.snapshot?.configuration.folder } ?? ""
            guard ReplicaFolder(path: folder).exists else { return }
            let retry = self.local.withLock { local -> RetryTimer? in
                defer { local.retry = nil }
                return local.retry
            }
            retry?.cancel()
            self.watchFolder()
            self.scheduleRound(after: .milliseconds(0))
        }
        let box = RetryTimer(timer)
        let previous = local.withLock { local -> RetryTimer? in
            defer { local.retry = box }
            return local.retry
        }
        previous?.cancel()
        timer.resume()
    }
}

/// A timer that looks for the folder again, held by the state of the sync that made it.
final class RetryTimer: @unchecked Sendable {
    // Unchecked: a DispatchSource is thread-safe; it is only resumed once and cancelled.
    private let timer: DispatchSourceTimer

    init(_ timer: DispatchSourceTimer) { self.timer = timer }

    func cancel() { timer.cancel() }
}
