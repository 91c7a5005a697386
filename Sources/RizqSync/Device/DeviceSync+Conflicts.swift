import RizqPrefs

extension DeviceSync {
    /// Merges the stray conflict copies of this suite key by key and archives them (what
    /// `rizq-prefs sync merge-conflicts` does): copies of the live suite file beside it
    /// (``SuiteConflictCopies``), and copies of replicas in the synced folder (merged as any
    /// replica: per key the newest stamp). With `dryRun`, only says what would change.
    /// A second run changes nothing. A copy that cannot be read — a link (never followed), a
    /// FIFO, another user's file, not JSON — is skipped with its reason
    /// (``ConflictCopyMerge/skipped``), and the others are merged all the same.
    public func mergeConflictCopies(dryRun: Bool = false) throws(SyncError) -> [ConflictCopyMerge] {
        let state = try requireState()
        let synced = try syncedKeys
        var results = try SuiteConflictCopies.merge(
            into: store, dryRun: dryRun,
            changeTime: { key in synced.contains(key) ? state.entries[key]?.stamp.milliseconds : nil },
            taken: { key, value, copyTime in
                guard synced.contains(key) else { return }
                // The copy's values keep the time they were made, as far as the copy tells it
                // (never later than now: a file's time can be set to anything).
                let time = min(copyTime, HybridLogicalClock.systemMilliseconds())
                local.withLock { $0.pending[key] = SyncedEntry(value: value, stamp: ChangeStamp(milliseconds: time, counter: 0, origin: replicaID)) }
            })
        let folder = ReplicaFolder(path: state.configuration.folder)
        guard folder.exists else { return results }
        var cache = ReplicaCache()
        let (all, problems) = folder.readAll(cache: &cache, own: replicaID)
        let reads = all.filter(\.isConflictCopy)
        // A copy that cannot be read is skipped and said so; the others are merged.
        for problem in problems where problem.isConflictCopy {
            results.append(ConflictCopyMerge(path: problem.path, kind: .replica, changedKeys: [], archivedTo: nil, skipped: problem.reason))
        }
        guard !reads.isEmpty || !results.isEmpty else { return results }
        if dryRun {
            var entries = state.entries
            let live = store.entries
            for read in reads {
                let takeable = read.entries.filter { clock.refusal(of: $0.value.stamp) == nil }
                let changed = ReplicaMerge.merge(takeable, into: &entries, accepts: synced.contains)
                results.append(ConflictCopyMerge(
                    path: read.path, kind: .replica, changedKeys: changed.filter { entries[$0]?.value != live[$0] }.sorted(), archivedTo: nil))
            }
            return results
        }
        let archivedBefore = Set(reads.map(\.path))
        let report = try syncNow()
        for (path, archived) in report.conflictCopies.sorted(by: { $0.key < $1.key }) where archivedBefore.contains(path) {
            results.append(ConflictCopyMerge(path: path, kind: .replica, changedKeys: report.merged, archivedTo: archived))
        }
        return results
    }
}
