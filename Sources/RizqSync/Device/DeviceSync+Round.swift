import Foundation
import RizqPrefs

/// What one round of sync did (``DeviceSync/syncNow()``).
public struct SyncReport: Sendable, Equatable {
    /// Keys whose value in the suite changed because of other devices (merged).
    public var merged: [String] = []
    /// Keys whose local change this round recorded with a stamp.
    public var recorded: [String] = []
    /// Whether this device's replica file was written.
    public var published = false
    /// Keys whose local value was not synced, and why (a credential, a limit); never the value.
    public var refused: [String: String] = [:]
    /// Whether this round was the first merge of this device (the initial sync ended).
    public var initialSyncCompleted = false
    /// Conflict copies of replicas merged and archived: each copy's path, and where it went.
    public var conflictCopies: [String: String] = [:]
    /// Where sync stands after the round.
    public var status: SyncStatus = .initialSync
}

extension DeviceSync {
    /// The stamp of a value a suite held before its key was synced here: older than any change,
    /// so that a new device never overwrites the others' values with what it had before.
    var baselineStamp: ChangeStamp { ChangeStamp(milliseconds: 0, counter: 0, origin: replicaID) }

    /// One round, under the sync state's lock (one round at a time across processes):
    ///
    /// 1. read the state and every replica in the folder (conflict copies too);
    /// 2. record the suite's local changes of synced keys: a value that differs from the
    ///    state's entry is a change made here, stamped when this process saw it (or now) —
    ///    unless another replica holds that very value with a newer stamp (this device applied
    ///    it, then stopped before saving: the value keeps its stamp); credentials and values
    ///    beyond the limits are not recorded;
    /// 3. merge the replicas key by key (newest stamp wins; a stamp is never renewed);
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
                return try roundBody(SyncState(parsing: current, path: stateFile.path), pending: pending, marks: marks, save: save, events: &events, report: &report)
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

    // The round's steps, under the lock (see round()).
    // swiftlint:disable:next function_body_length
    private func roundBody(
        _ loaded: SyncState, pending: [String: SyncedEntry], marks: Set<String>, save: (SyncState) throws(SyncError) -> Bool,
        events: inout [SyncEvent], report: inout SyncReport
    ) throws(SyncError) -> SyncState {
        // A run again (the state file changed under the last one) starts afresh.
        events = []
        report = SyncReport()
        var state = loaded
        for entry in state.entries.values { clock.observe(entry.stamp) }
        if state.configuration.includesMarkedKeys { state.markedKeys.formUnion(marks) }
        let keys = state.syncedKeys
        let folder = ReplicaFolder(path: state.configuration.folder)
        let folderExists = folder.exists

        // 1. The replicas, read once (unchanged files come from the cache).
        var reads: [ReplicaFolder.Read] = []
        if folderExists {
            var cache = local.withLock { local -> ReplicaCache in
                defer { local.cache = ReplicaCache() }
                return local.cache
            }
            let (all, problems) = folder.readAll(cache: &cache)
            local.withLock { $0.cache = cache }
            for problem in problems {
                guard case .unreadableReplica(let path, let reason) = problem else { continue }
                if local.withLock({ $0.reportedUnreadable.insert(path).inserted }) {
                    events.append(.unreadableReplica(path: path, reason: reason))
                    Self.logger.warning("\(problem)")
                }
            }
            reads = all.filter { read in
                read.document.suite == paths.suiteName && (read.document.app == nil || paths.appID == nil || read.document.app == paths.appID)
            }
        }

        // 2. Local changes.
        let live = store.entries
        var refusedKeys: Set<String> = []
        for key in keys.sorted() {
            let value = live[key]
            let entry = state.entries[key]
            if let entry, entry.value == value { continue }
            let joining = entry == nil && !state.knownKeys.contains(key)
            state.knownKeys.insert(key)
            if entry == nil, value == nil { continue }
            if let value, let adopted = newest(key, holding: value, after: entry?.stamp, in: reads) {
                state.entries[key] = adopted
                continue
            }
            if let value {
                if let reason = SecretGate.refusal(key: key, value: value) {
                    refusedKeys.insert(key)
                    report.refused[key] = reason
                    if local.withLock({ $0.reportedRefusals.updateValue(value, forKey: key) != value }) {
                        events.append(.secretRefused(key: key, reason: reason))
                        Self.logger.warning("not syncing key '\(key)' of suite \(store.suiteName): its value looks like a credential (\(reason))")
                    }
                    continue
                }
                if !state.configuration.limits.isUnlimited {
                    var others: [String: PrefValue] = [:]
                    for (name, other) in state.entries where name != key && keys.contains(name) {
                        if let otherValue = other.value { others[name] = otherValue }
                    }
                    if let limit = state.configuration.limits.violation(setting: value, forKey: key, others: others) {
                        refusedKeys.insert(key)
                        report.refused[key] = "over the limit of \(limit)"
                        if local.withLock({ $0.reportedRefusals.updateValue(value, forKey: key) != value }) {
                            events.append(.quotaExceeded(key: key, limit: limit))
                        }
                        continue
                    }
                }
            }
            let stamp: ChangeStamp
            if let seen = pending[key], seen.value == value {
                stamp = seen.stamp
            } else if joining {
                stamp = baselineStamp
            } else {
                stamp = clock.now()
            }
            state.entries[key] = SyncedEntry(value: value, stamp: stamp)
            report.recorded.append(key)
        }

        // 3. Merge.
        var sawOtherDevice = false
        var mergedCopies: [(path: String, keys: [String])] = []
        let now = HybridLogicalClock.systemMilliseconds()
        for read in reads {
            let document = read.document
            let newestStamp = document.newest
            if document.replica != replicaID {
                if let forgottenAt = state.forgotten[document.replica] {
                    guard let newestStamp, newestStamp > forgottenAt else { continue }
                    state.forgotten.removeValue(forKey: document.replica)
                }
                sawOtherDevice = true
                if !read.isConflictCopy, let newestStamp {
                    state.devices[document.replica] = max(newestStamp, state.devices[document.replica] ?? newestStamp)
                    if newestStamp.milliseconds < now - state.configuration.retentionMilliseconds,
                        local.withLock({ $0.reportedStale.insert(document.replica).inserted })
                    {
                        events.append(.staleReplica(id: document.replica, newest: newestStamp))
                    }
                }
            }
            for entry in document.entries.values { clock.observe(entry.stamp) }
            let changed = ReplicaMerge.merge(document.entries, into: &state.entries, accepts: keys.contains)
            state.knownKeys.formUnion(changed)
            if read.isConflictCopy { mergedCopies.append((read.path, changed.sorted())) }
        }
        var firstMerge = false
        if folderExists {
            state.lastMerge = now
            if !state.initialSyncDone, sawOtherDevice {
                state.initialSyncDone = true
                firstMerge = true
                report.initialSyncCompleted = true
            }
        }

        // Tombstones older than the retention go (a device away longer may bring the key back).
        let horizon = now - state.configuration.retentionMilliseconds
        state.entries = state.entries.filter { !($0.value.isTombstone && $0.value.stamp.milliseconds < horizon) }

        // 4. Apply to the suite.
        var changes: [(key: String, value: PrefValue?)] = []
        for key in keys.sorted() where !refusedKeys.contains(key) {
            guard let entry = state.entries[key], entry.value != live[key] else { continue }
            changes.append((key, entry.value))
        }
        if !changes.isEmpty {
            if local.withLock({ $0.running }) {
                local.withLock { local in for change in changes { local.applied[change.key] = .some(change.value) } }
            }
            report.merged = try apply(changes, over: live)
        }

        // 5. Save.
        let reason: SyncChangeReason = firstMerge ? (state.accountChangePending ? .accountChange : .initialSyncChange) : .serverChange
        if firstMerge { state.accountChangePending = false }
        if state != loaded {
            guard try save(state) else { return state }
        }

        // 6. Publish.
        if state.publishes, folderExists {
            let document = ReplicaDocument(
                replica: replicaID, app: paths.appID, suite: paths.suiteName, entries: state.entries.filter { keys.contains($0.key) })
            if let keys = try publish(document, in: folder, check: state.configuration.engineCheck) {
                report.published = true
                events.append(.published(keys: keys))
            }
        }

        // 7. Conflict copies: merged and saved above, so they can go.
        for copy in mergedCopies {
            if let archived = ConflictArchive(paths: paths).archive(copy.path) {
                report.conflictCopies[copy.path] = archived
                events.append(.conflictCopyMerged(path: archived, keys: copy.keys))
            }
        }

        if !report.merged.isEmpty || firstMerge {
            events.append(.merged(keys: report.merged, reason: reason))
        }
        return state
    }

    /// The newest entry of `key` among the replicas that holds `value` and is newer than
    /// `stamp`; `nil` when there is none.
    private func newest(_ key: String, holding value: PrefValue, after stamp: ChangeStamp?, in reads: [ReplicaFolder.Read]) -> SyncedEntry? {
        var best: SyncedEntry?
        for read in reads {
            guard let entry = read.document.entries[key], entry.value == value else { continue }
            if let stamp, entry.stamp <= stamp { continue }
            if best == nil || entry.stamp > (best?.stamp ?? entry.stamp) { best = entry }
        }
        return best
    }

    /// Writes other devices' changes to the suite in one commit; returns the keys changed. A
    /// key that another process changed between the round's read and the commit gets that
    /// change back: it was made after everything this round merged, and the next round
    /// records it with a later stamp.
    private func apply(_ changes: [(key: String, value: PrefValue?)], over live: [String: PrefValue]) throws(SyncError) -> [String] {
        let commit: SuiteCommit
        do {
            commit = try store.commit { batch in
                for change in changes {
                    if let value = change.value { try batch.set(value, forKey: change.key) } else { batch.removeObject(forKey: change.key) }
                }
            }
        } catch let error as SuiteStoreError {
            throw .storage(error)
        } catch {
            throw .storage(.writeFailed(path: store.location.path, reason: "\(error)"))
        }
        let overtaken = commit.changes.filter { $0.before != live[$0.key] }
        if !overtaken.isEmpty {
            do {
                try store.commit { batch in
                    for change in overtaken {
                        if let before = change.before { try batch.set(before, forKey: change.key) } else { batch.removeObject(forKey: change.key) }
                    }
                }
            } catch let error as SuiteStoreError {
                throw .storage(error)
            } catch {
                throw .storage(.writeFailed(path: store.location.path, reason: "\(error)"))
            }
        }
        let kept = Set(overtaken.map(\.key))
        return commit.changes.map(\.key).filter { !kept.contains($0) }
    }

    /// Writes this device's replica when its bytes changed; `true` when it wrote. Syncthing
    /// (when its API is configured) is asked to rescan the file at once.
    /// Writes this device's replica when it changed; the keys whose entries changed in it (also
    /// a change made during the initial sync, published with the first merge), or `nil` when
    /// the file already held it.
    private func publish(_ document: ReplicaDocument, in folder: ReplicaFolder, check: SyncEngineCheck) throws(SyncError) -> [String]? {
        let bytes = try document.encoded()
        let file = try folder.replicaFile(replicaID)
        var wrote = false
        var before: [String: SyncedEntry] = [:]
        do {
            try file.withLock { current, replace in
                wrote = false
                guard current != bytes else { return }
                // What the file held: a replica this device wrote (unreadable counts as empty).
                before = current.flatMap { try? ReplicaDocument(parsing: $0, path: file.path).entries } ?? [:]
                wrote = try replace(bytes)
            }
        } catch let error as SuiteStoreError {
            throw .storage(error)
        } catch {
            throw .storage(.writeFailed(path: file.path, reason: "\(error)"))
        }
        guard wrote else { return nil }
        if case .syncthing = check {
            let probe = EngineProbe(check: check, folder: folder.path)
            let path = file.path
            DispatchQueue.global().async { probe.nudge(path) }
        }
        return Set(document.entries.keys).union(before.keys).filter { document.entries[$0] != before[$0] }.sorted()
    }
}
