import RizqCore
import RizqPrefs

/// One round of device sync under the sync state's lock (``DeviceSync/round()``), as its named
/// steps over what the round has learnt so far: the state it changes, what each replica
/// offers, and the report and events it gathers. Made afresh each time the body runs (the
/// state file changed under the last run), so a run again starts from nothing.
struct SyncRound {
    /// The device sync the round runs for: the suite, the clock, this process's memory between rounds.
    let sync: DeviceSync
    /// The state as the round read it (saved only when the round changed it).
    let loaded: SyncState
    /// The state as the round changes it.
    var state: SyncState
    /// Local changes of synced keys this process saw, with the stamps given when it saw them.
    let pending: [String: SyncedEntry]
    /// What the round removed from the state it read, and why (``DeviceSync/repair(_:)``).
    let repaired: [String: String]
    /// The keys synced this round.
    let keys: Set<String>
    /// The synced folder, and whether it is there (the round merges and publishes only then).
    let folder: ReplicaFolder
    let folderExists: Bool

    /// What each other device's replica (or conflict copy) may give this round (step 1).
    var offers: [(read: ReplicaFolder.Read, entries: [String: SyncedEntry])] = []
    /// Each other device's offset from this device's clock (``DeviceSync/signedSkews(of:)``).
    var skews: [String: Int64] = [:]
    /// The suite's values as step 2 read them.
    var live: [String: PrefValue] = [:]
    /// The synced keys whose local value was refused (never applied back over).
    var refusedKeys: Set<String> = []
    /// The conflict copies merged, with the keys each changed (archived in step 7).
    var mergedCopies: [(path: String, keys: [String])] = []
    /// Whether this round is the first merge of this device (the initial sync ended).
    var firstMerge = false

    var report = SyncReport()
    var events: [SyncEvent] = []

    /// A round over `loaded`, the state read under the lock: what it must not keep removed, its
    /// stamps observed by the clock, the keys marked for sync in this process (`marks`) added
    /// when the configuration takes them.
    init(sync: DeviceSync, loaded: SyncState, pending: [String: SyncedEntry], marks: Set<String>) {
        self.sync = sync
        self.loaded = loaded
        self.pending = pending
        var state = loaded
        // What an earlier version saved and must not keep goes (the save writes it).
        repaired = sync.repair(&state)
        for entry in state.entries.values { sync.clock.observe(entry.stamp) }
        if state.configuration.includesMarkedKeys { state.markedKeys.formUnion(marks) }
        self.state = state
        keys = state.syncedKeys
        folder = ReplicaFolder(path: state.configuration.folder)
        folderExists = folder.exists
    }

    /// The round's steps, in order (``DeviceSync/round()`` says what each does); returns the
    /// state as saved, or as found changed under the round when `save` says so (`false`: the
    /// round stops there and runs again).
    mutating func run(save: (SyncState) throws(SyncError) -> Bool) throws(SyncError) -> SyncState {
        reportRepairs()
        readReplicas()
        recordLocalChanges()
        let now = HybridLogicalClock.systemMilliseconds()
        mergeReplicas(at: now)
        dropExpiredTombstones(before: now)
        try applyToSuite()
        let reason = takeChangeReason()
        if state != loaded {
            guard try save(state) else { return state }
        }
        try publish()
        archiveMergedCopies()
        reportClockSkews()
        if !report.merged.isEmpty || firstMerge {
            events.append(.merged(keys: report.merged, reason: reason))
        }
        return state
    }

    /// Why the values merged this round changed, as Apple's change reasons say it: the first
    /// merge of a device (after an account change when sync was enabled again), or another
    /// device's change.
    private mutating func takeChangeReason() -> SyncChangeReason {
        guard firstMerge else { return .serverChange }
        defer { state.accountChangePending = false }
        return state.accountChangePending ? .accountChange : .initialSyncChange
    }

    /// Reports `skipped` in the round's report, and once (per file, key and reason) as an event
    /// and a warning in the log.
    mutating func skip(_ skipped: SkippedInput) {
        report.skipped.append(skipped)
        let mark = skipped.path + "\u{0}" + (skipped.key ?? "") + "\u{0}" + skipped.reason
        guard sync.local.withLock({ $0.reportedUnreadable.insert(mark).inserted }) else { return }
        if skipped.key == nil {
            events.append(.unreadableReplica(path: skipped.path, reason: skipped.reason))
        } else {
            events.append(.inputSkipped(skipped))
        }
        DeviceSync.logger.warning("suite \(sync.store.suiteName): \(skipped)")
    }

    /// Reports what the state read held and the round removed (``DeviceSync/repair(_:)``).
    private mutating func reportRepairs() {
        for (key, reason) in repaired.sorted(by: { $0.key < $1.key }) {
            skip(SkippedInput(path: sync.stateFile.path, device: nil, key: key, reason: "removed from this device's sync state: " + reason))
        }
    }
}
