import RizqCore

extension SyncRound {
    /// Step 3: the replicas merged key by key (newest stamp wins; a stamp is never renewed),
    /// while the synced keys fit in what a suite file holds (``MergeBudget``); each other
    /// device's newest stamp noted, a replica gone stale reported, a merge a clock decided
    /// explained (``explainClockLosses(_:)``). The first merge with another device ends the
    /// initial sync.
    mutating func mergeReplicas(at now: Int64) {
        var sawOtherDevice = false
        var budget = MergeBudget(limit: DeviceSync.mergeByteLimit, sync: sync)
        let bringsChanges = offers.contains { offer in
            offer.entries.contains { key, theirs in state.entries[key].map { $0.stamp < theirs.stamp } ?? true }
        }
        if bringsChanges { budget.measure(state, keys: keys, live: live) }
        for (read, entries) in offers {
            if read.document.replica != sync.replicaID {
                guard noteDevice(of: read, at: now) else { continue }
                sawOtherDevice = true
            }
            for entry in entries.values { sync.clock.observe(entry.stamp) }
            explainClockLosses(entries)
            merge(entries, of: read, within: &budget)
        }
        if state.clockLosses.count > DeviceSync.keptClockLosses {
            for key in state.clockLosses.keys.sorted().dropFirst(DeviceSync.keptClockLosses) { state.clockLosses.removeValue(forKey: key) }
        }
        if folderExists {
            state.lastMerge = now
            if !state.initialSyncDone, sawOtherDevice {
                state.initialSyncDone = true
                firstMerge = true
                report.initialSyncCompleted = true
            }
        }
    }

    /// Tombstones older than the retention go (a device away longer may bring the key back).
    mutating func dropExpiredTombstones(before now: Int64) {
        let horizon = HybridLogicalClock.difference(now, state.configuration.retentionMilliseconds)
        state.entries = state.entries.filter { !($0.value.isTombstone && $0.value.stamp.milliseconds < horizon) }
    }

    /// Notes the newest stamp of the device that published `read` (the newest its clock takes:
    /// a forged one must not pin the device), and reports its replica once when it is older
    /// than the retention. `false` when the device was forgotten here and has published
    /// nothing since: its replica is passed over.
    private mutating func noteDevice(of read: ReplicaFolder.Read, at now: Int64) -> Bool {
        let document = read.document
        let clock = sync.clock
        let newestStamp = document.entries.values.lazy.map(\.stamp).filter { clock.refusal(of: $0) == nil }.max()
        if let forgottenAt = state.forgotten[document.replica] {
            guard let newestStamp, newestStamp > forgottenAt else { return false }
            state.forgotten.removeValue(forKey: document.replica)
        }
        guard !read.isConflictCopy, let newestStamp else { return true }
        state.devices[document.replica] = max(newestStamp, state.devices[document.replica] ?? newestStamp)
        if newestStamp.milliseconds < HybridLogicalClock.difference(now, state.configuration.retentionMilliseconds),
            sync.local.withLock({ $0.reportedStale.insert(document.replica).inserted })
        {
            events.append(.staleReplica(id: document.replica, newest: newestStamp))
        }
        return true
    }

    /// Merges the takeable `entries` of `read` into the state (``ReplicaMerge``), each winner
    /// only while `budget` holds it; a value over the budget is skipped and reported.
    private mutating func merge(_ entries: [String: SyncedEntry], of read: ReplicaFolder.Read, within budget: inout MergeBudget) {
        var overBudget: [(key: String, reason: String)] = []
        let changed = ReplicaMerge.merge(entries, into: &state.entries) { key, theirs, mine in
            guard let reason = budget.take(theirs, over: mine, forKey: key) else { return true }
            overBudget.append((key, reason))
            return false
        }
        for (key, reason) in overBudget {
            skip(SkippedInput(path: read.path, device: read.document.replica, key: key, reason: reason))
        }
        state.knownKeys.formUnion(changed)
        for key in changed where report.decidedByClock[key] == nil { state.clockLosses.removeValue(forKey: key) }
        // Judged when the replica was read: a later load of the state need not judge it again.
        sync.local.withLock { local in for key in changed { local.vetted[key] = entries[key]?.stamp } }
        if read.isConflictCopy { mergedCopies.append((read.path, changed.sorted())) }
    }
}
