import RizqPrefs

extension DeviceSync {
    /// Merges the stray conflict copies of this suite key by key and archives them (what
    /// `rizq-prefs sync merge-conflicts` does): copies of the live suite file beside it
    /// (``SuiteConflictCopies``), and copies of replicas in the synced folder (merged as any
    /// replica: per key the newest stamp). With `dryRun`, only says what would change.
    /// A second run changes nothing.
    public func mergeConflictCopies(dryRun: Bool = false) throws(SyncError) -> [ConflictCopyMerge] {
        let state = try requireState()
        let synced = try syncedKeys
        var results = try SuiteConflictCopies.merge(
            into: store, dryRun: dryRun,
            changeTime: { key in synced.contains(key) ? state.entries[key]?.stamp.milliseconds : nil },
            taken: { key, value, copyTime in
                guard synced.contains(key) else { return }
                // The copy's values keep the time they were made, as far as the copy tells it.
                local.withLock { $0.pending[key] = SyncedEntry(value: value, stamp: ChangeStamp(milliseconds: copyTime, counter: 0, origin: replicaID)) }
            })
        let folder = ReplicaFolder(path: state.configuration.folder)
        guard folder.exists else { return results }
        var cache = ReplicaCache()
        let reads = folder.readAll(cache: &cache).reads.filter(\.isConflictCopy)
        guard !reads.isEmpty || !results.isEmpty else { return results }
        if dryRun {
            var entries = state.entries
            let live = store.entries
            for read in reads {
                let changed = ReplicaMerge.merge(read.document.entries, into: &entries, accepts: synced.contains)
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
