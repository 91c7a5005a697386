import RizqCore
import RizqPrefs

extension DeviceSync {
    /// The stamp of a value a suite held before its key was synced here: older than any change,
    /// so that a new device never overwrites the others' values with what it had before.
    var baselineStamp: ChangeStamp { ChangeStamp(milliseconds: 0, counter: 0, origin: replicaID) }

    /// One round, under the sync state's lock (one round at a time across processes), in the
    /// steps ``SyncRound/run(save:)`` names:
    ///
    /// 1. read the state (removing what it must not keep: a stamp further ahead than the clock's
    ///    maximum offset, a credential) and every other device's replica in the folder
    ///    (conflict copies too); a file that cannot be read is skipped and reported, and so is
    ///    each value that cannot be taken (``SkippedInput``);
    /// 2. record the suite's local changes of synced keys: a value that differs from the
    ///    state's entry is a change made here, stamped when this process saw it (or now) —
    ///    unless another replica holds that very value with a newer stamp (this device applied
    ///    it, then stopped before saving: the value keeps its stamp); credentials and values
    ///    beyond the limits are not recorded;
    /// 3. merge the replicas key by key (newest stamp wins; a stamp is never renewed), while the
    ///    synced keys fit in what a suite file holds; measure how far other devices' stamps run
    ///    from this device's clock (``ClockSkew``) and explain a merge a clock decided;
    /// 4. apply to the suite what differs (one commit, under the suite's lock); a key another
    ///    process changed meanwhile keeps that change, which the next round records;
    /// 5. save the state; 6. publish the replica (only after the initial sync, and only when
    ///    it changed); 7. archive the conflict copies merged.
    func round() throws(SyncError) -> SyncReport {
        // This process's own unwritten changes go out, other processes' come in: the round
        // reads the suite as the file and this process hold it now.
        _ = store.synchronize()
        let marks = store.keysMarkedForSync
        let pending = local.withLock { local -> [String: SyncedEntry] in
            defer { local.pending = [:] }
            return local.pending
        }
        var events: [SyncEvent] = []
        var report = SyncReport()
        let state: SyncState
        do {
            state = try locked { current, save throws(SyncError) -> SyncState in
                guard let current else { throw .notEnabled(suite: store.suiteName) }
                // A run again (the state file changed under the last one) starts afresh.
                var round = try SyncRound(sync: self, loaded: SyncState(parsing: current, path: stateFile.path), pending: pending, marks: marks)
                defer { (events, report) = (round.events, round.report) }
                return try round.run(save: save)
            }
        } catch {
            // The changes seen stay for the next round (newer ones seen meanwhile win).
            local.withLock { local in local.pending.merge(pending) { newer, _ in newer } }
            throw error
        }
        let status = Self.status(of: state)
        report.status = status
        let changedStatus = local.withLock { local -> Bool in
            local.snapshot = state
            defer { local.lastStatus = status }
            return local.lastStatus != status
        }
        if changedStatus { events.append(.statusChanged(status)) }
        hub.emit(events)
        return report
    }

    /// The most the synced keys (and the suite's other keys) may take after a merge: seven
    /// eighths of the 256 MiB a suite file holds, the rest left to stamps and to the sync state's
    /// and the replica's own words. A merge that would pass it skips (and reports) the value.
    static var mergeByteLimit: Int { SuiteStore.fileSizeLimit / 8 * 7 }

    /// How many keys' clock explanations the state keeps.
    static let keptClockLosses = 100
    /// How many devices' clock readings the state keeps (the furthest ahead).
    static let keptClockReadings = 64

    /// Removes from a saved state what it must not keep — written by an earlier version, or by
    /// hand: an entry whose stamp is further ahead than the clock's maximum offset (it would
    /// drag the clock, and every other, ahead for good), an entry whose value the credential
    /// rule refuses (a peer's token merged before) or the suite cannot hold; a device's newest
    /// stamp so far ahead. Returns the keys removed, with why. The suite keeps its values: a
    /// key whose entry went is recorded again by the next round as any local change (and
    /// refused if it is a credential).
    func repair(_ state: inout SyncState) -> [String: String] {
        var removed: [String: String] = [:]
        let vetted = local.withLock { $0.vetted }
        var newlyVetted: [String: ChangeStamp] = [:]
        for (key, entry) in state.entries {
            if let refusal = clock.refusal(of: entry.stamp) {
                removed[key] = refusal.description
                continue
            }
            if vetted[key] == entry.stamp { continue }
            if let reason = ReplicaCache.Checked.refusal(key: key, entry: entry) {
                removed[key] = reason
                continue
            }
            newlyVetted[key] = entry.stamp
        }
        for key in removed.keys { state.entries.removeValue(forKey: key) }
        state.devices = state.devices.filter { clock.refusal(of: $0.value) == nil }
        for (id, stamp) in state.forgotten where clock.refusal(of: stamp) != nil {
            state.forgotten[id] = ChangeStamp(milliseconds: HybridLogicalClock.systemMilliseconds(), counter: 0, origin: id)
        }
        if !newlyVetted.isEmpty { local.withLock { $0.vetted.merge(newlyVetted) { _, newer in newer } } }
        return removed
    }
}
