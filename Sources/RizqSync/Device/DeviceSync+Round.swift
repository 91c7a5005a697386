import Foundation
import RizqCore
import RizqJSON
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
    /// What other devices published that this round did not take, and why: a whole replica
    /// file, or one key's value (``SkippedInput``). Entries removed from this device's saved
    /// state (written by an earlier version) are here too, with the state's path.
    public var skipped: [SkippedInput] = []
    /// The devices whose stamps are far from this device's clock, as known after the round
    /// (``ClockSkew``).
    public var clockSkews: [ClockSkew] = []
    /// Keys whose merge was decided by a clock that is off — the edit that lost was made later,
    /// once the clocks' offset is taken out — with the explanation.
    public var decidedByClock: [String: String] = [:]
    /// Where sync stands after the round.
    public var status: SyncStatus = .initialSync
}

extension DeviceSync {
    /// The stamp of a value a suite held before its key was synced here: older than any change,
    /// so that a new device never overwrites the others' values with what it had before.
    var baselineStamp: ChangeStamp { ChangeStamp(milliseconds: 0, counter: 0, origin: replicaID) }

    /// One round, under the sync state's lock (one round at a time across processes):
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
                return try roundBody(
                    SyncState(parsing: current, path: stateFile.path), pending: pending, marks: marks, save: save, events: &events, report: &report)
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
    // swiftlint:disable:next function_body_length cyclomatic_complexity
    private func roundBody(
        _ loaded: SyncState, pending: [String: SyncedEntry], marks: Set<String>, save: (SyncState) throws(SyncError) -> Bool,
        events: inout [SyncEvent], report: inout SyncReport
    ) throws(SyncError) -> SyncState {
        // A run again (the state file changed under the last one) starts afresh.
        events = []
        report = SyncReport()
        var state = loaded
        // What an earlier version saved and must not keep goes (the save below writes it).
        for (key, reason) in repair(&state).sorted(by: { $0.key < $1.key }) {
            skip(SkippedInput(path: stateFile.path, device: nil, key: key, reason: "removed from this device's sync state: " + reason), &report, &events)
        }
        for entry in state.entries.values { clock.observe(entry.stamp) }
        if state.configuration.includesMarkedKeys { state.markedKeys.formUnion(marks) }
        let keys = state.syncedKeys
        let folder = ReplicaFolder(path: state.configuration.folder)
        let folderExists = folder.exists

        // 1. The other devices' replicas, read once (unchanged files come from the cache).
        var reads: [ReplicaFolder.Read] = []
        if folderExists {
            var cache = local.withLock { local -> ReplicaCache in
                defer { local.cache = ReplicaCache() }
                return local.cache
            }
            let (all, problems) = folder.readAll(cache: &cache, own: replicaID)
            local.withLock { $0.cache = cache }
            for problem in problems {
                skip(SkippedInput(path: problem.path, device: nil, key: nil, reason: problem.reason), &report, &events)
            }
            reads = all.filter { read in
                read.document.suite == paths.suiteName && (read.document.app == nil || paths.appID == nil || read.document.app == paths.appID)
            }
        }
        // What each may give: synced keys, values the suite takes, stamps the clock takes.
        let offers = reads.map { read in (read: read, entries: offer(read, keys: keys, report: &report, events: &events)) }
        measureClocks(reads, into: &state)
        let skews = Self.signedSkews(of: state)

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
            if let value, let adopted = newest(key, holding: value, after: entry?.stamp, in: offers.map(\.entries)) {
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
            state.clockLosses.removeValue(forKey: key)
            report.recorded.append(key)
            if value != nil { local.withLock { $0.vetted[key] = stamp } }
        }

        // 3. Merge, while the synced keys fit in a suite file.
        var sawOtherDevice = false
        var mergedCopies: [(path: String, keys: [String])] = []
        let now = HybridLogicalClock.systemMilliseconds()
        let retention = state.configuration.retentionMilliseconds
        var budget = MergeBudget(limit: Self.mergeByteLimit)
        let bringsChanges = offers.contains { offer in
            offer.entries.contains { key, theirs in state.entries[key].map { $0.stamp < theirs.stamp } ?? true }
        }
        if bringsChanges { budget.total = syncedBytes(state, keys: keys, live: live) }
        for (read, entries) in offers {
            let document = read.document
            // The newest stamp this clock would take: a forged one must not pin the device.
            if document.replica != replicaID {
                let newestStamp = document.entries.values.lazy.map(\.stamp).filter { self.clock.refusal(of: $0) == nil }.max()
                if let forgottenAt = state.forgotten[document.replica] {
                    guard let newestStamp, newestStamp > forgottenAt else { continue }
                    state.forgotten.removeValue(forKey: document.replica)
                }
                sawOtherDevice = true
                if !read.isConflictCopy, let newestStamp {
                    state.devices[document.replica] = max(newestStamp, state.devices[document.replica] ?? newestStamp)
                    if newestStamp.milliseconds < HybridLogicalClock.difference(now, retention),
                        local.withLock({ $0.reportedStale.insert(document.replica).inserted })
                    {
                        events.append(.staleReplica(id: document.replica, newest: newestStamp))
                    }
                }
            }
            for entry in entries.values { clock.observe(entry.stamp) }
            for (key, theirs) in entries {
                guard let mine = state.entries[key], mine.stamp != theirs.stamp,
                    let explanation = explain(key: key, mine, theirs, skews: skews)
                else { continue }
                state.clockLosses[key] = explanation
                report.decidedByClock[key] = explanation
                let mark = "\(key)\u{0}\(mine.stamp)\u{0}\(theirs.stamp)"
                if local.withLock({ $0.reportedLosses.insert(mark).inserted }) {
                    events.append(.decidedByClock(key: key, explanation: explanation))
                    Self.logger.warning("suite \(store.suiteName): \(explanation)")
                }
            }
            let changed = ReplicaMerge.merge(entries, into: &state.entries) { key, theirs, mine in
                guard let total = budget.total else { return true }
                let bytes = entryBytes(key, theirs) - (mine.map { entryBytes(key, $0) } ?? 0)
                let after = total.addingReportingOverflow(bytes).overflow ? Int.max : total + bytes
                guard after <= budget.limit else {
                    let reason = "with it the synced keys would take \(FileWords.size(Int64(after))) (with the suite's other keys), over the "
                        + "\(FileWords.size(Int64(budget.limit))) that the suite, its sync state and this device's replica may hold; "
                        + "the device that published it should store less"
                    skip(SkippedInput(path: read.path, device: document.replica, key: key, reason: reason), &report, &events)
                    return false
                }
                budget.total = after
                return true
            }
            state.knownKeys.formUnion(changed)
            for key in changed where report.decidedByClock[key] == nil { state.clockLosses.removeValue(forKey: key) }
            // Judged when the replica was read: a later load of the state need not judge it again.
            local.withLock { local in for key in changed { local.vetted[key] = entries[key]?.stamp } }
            if read.isConflictCopy { mergedCopies.append((read.path, changed.sorted())) }
        }
        if state.clockLosses.count > Self.keptClockLosses {
            for key in state.clockLosses.keys.sorted().dropFirst(Self.keptClockLosses) { state.clockLosses.removeValue(forKey: key) }
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
        let horizon = HybridLogicalClock.difference(now, retention)
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
            var document = ReplicaDocument(
                replica: replicaID, app: paths.appID, suite: paths.suiteName, entries: state.entries.filter { keys.contains($0.key) })
            document.clocks = state.clocks.mapValues(\.ahead)
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

        // Clocks far off, said once per device and offset.
        report.clockSkews = clockSkews(of: state)
        for skew in report.clockSkews {
            let bucket = skew.offsetMilliseconds / max(1, Self.clockWarningMilliseconds)
            if local.withLock({ $0.reportedSkews.updateValue(bucket, forKey: skew.device) != bucket }) {
                events.append(.clockSkew(skew))
                Self.logger.warning("suite \(store.suiteName): \(skew)")
            }
        }

        if !report.merged.isEmpty || firstMerge {
            events.append(.merged(keys: report.merged, reason: reason))
        }
        return state
    }

    /// The entries of `read` this round may take: synced keys whose values the suite can hold
    /// and the credential rule lets through (``ReplicaCache/Checked``), with stamps this
    /// device's clock takes. The others are reported (``SkippedInput``).
    private func offer(_ read: ReplicaFolder.Read, keys: Set<String>, report: inout SyncReport, events: inout [SyncEvent]) -> [String: SyncedEntry] {
        var entries: [String: SyncedEntry] = [:]
        for (key, entry) in read.entries where keys.contains(key) {
            if let refusal = clock.refusal(of: entry.stamp) {
                skip(SkippedInput(path: read.path, device: read.document.replica, key: key, reason: refusal.description), &report, &events)
                continue
            }
            entries[key] = entry
        }
        for (key, reason) in read.skipped.sorted(by: { $0.key < $1.key }) where keys.contains(key) {
            skip(SkippedInput(path: read.path, device: read.document.replica, key: key, reason: reason), &report, &events)
        }
        return entries
    }

    /// Reports `skipped` in the round's report, and once (per file, key and reason) as an event
    /// and a warning in the log.
    private func skip(_ skipped: SkippedInput, _ report: inout SyncReport, _ events: inout [SyncEvent]) {
        report.skipped.append(skipped)
        let mark = skipped.path + "\u{0}" + (skipped.key ?? "") + "\u{0}" + skipped.reason
        guard local.withLock({ $0.reportedUnreadable.insert(mark).inserted }) else { return }
        if skipped.key == nil {
            events.append(.unreadableReplica(path: skipped.path, reason: skipped.reason))
        } else {
            events.append(.inputSkipped(skipped))
        }
        Self.logger.warning("suite \(store.suiteName): \(skipped)")
    }

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

    /// Takes note of how far ahead of this device's clock other devices' stamps are: for each
    /// origin, its newest stamp, measured when first seen (``ClockSkew``); and of what the
    /// other devices' replicas say of this device's stamps.
    private func measureClocks(_ reads: [ReplicaFolder.Read], into state: inout SyncState) {
        let warning = Self.clockWarningMilliseconds
        var newest: [String: ChangeStamp] = [:]
        var reports: [String: Int64] = [:]
        for read in reads {
            // Stamps the clock refuses are reported as skipped values, not as a clock.
            for entry in read.document.entries.values where entry.stamp.origin != replicaID && clock.refusal(of: entry.stamp) == nil {
                if let known = newest[entry.stamp.origin], known >= entry.stamp { continue }
                newest[entry.stamp.origin] = entry.stamp
            }
            if !read.isConflictCopy, let ahead = read.document.clocks[replicaID], ahead > warning {
                reports[read.document.replica] = ahead
            }
        }
        for (origin, stamp) in newest where ReplicaIdentity.isValid(origin) {
            if let known = state.clocks[origin], known.stamp >= stamp { continue }
            let ahead = clock.offset(of: stamp)
            if ahead > warning {
                state.clocks[origin] = SyncState.ClockReading(stamp: stamp, ahead: ahead)
            } else if state.clocks[origin] != nil {
                // A newer stamp near this clock: that clock was set right.
                state.clocks.removeValue(forKey: origin)
            }
        }
        if state.clocks.count > Self.keptClockReadings {
            let kept = state.clocks.sorted { $0.value.ahead > $1.value.ahead }.prefix(Self.keptClockReadings)
            state.clocks = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        state.reports = reports
    }

    /// Each other device's offset from this device's clock as the state knows it (milliseconds;
    /// positive: its stamps run ahead; negative: its clock runs behind).
    static func signedSkews(of state: SyncState) -> [String: Int64] {
        var skews: [String: Int64] = [:]
        for (device, report) in state.reports { skews[device] = -report }
        for (device, reading) in state.clocks where reading.ahead > clockWarningMilliseconds { skews[device] = reading.ahead }
        return skews
    }

    /// The devices whose stamps are far from this device's clock, this device included when
    /// its own stamps run ahead of its clock.
    func clockSkews(of state: SyncState) -> [ClockSkew] {
        var skews = Self.signedSkews(of: state).map { ClockSkew(device: $0.key, offsetMilliseconds: $0.value) }
        let own = state.entries.values.lazy.map(\.stamp).filter { $0.origin == self.replicaID }.max()
        if let own {
            let ahead = clock.offset(of: own)
            if ahead > Self.clockWarningMilliseconds { skews.append(ClockSkew(device: replicaID, isThisDevice: true, offsetMilliseconds: ahead)) }
        }
        return skews.sorted { $0.device < $1.device }
    }

    /// Why the merge of `key` between `mine` and `theirs` may have been decided by clocks that
    /// are off rather than by which edit came later: the two stamps come from devices whose
    /// clocks are further apart (the winner's ahead of the loser's, ``signedSkews(of:)``) than
    /// the stamps are from each other, so the edit that lost may have been made later. `nil`
    /// when the values agree, the clocks do not differ by more than ``clockWarningOffset``, or
    /// the stamps are further apart than the clocks.
    private func explain(key: String, _ mine: SyncedEntry, _ theirs: SyncedEntry, skews: [String: Int64]) -> String? {
        guard mine.value != theirs.value else { return nil }
        let (winner, loser) = theirs.stamp > mine.stamp ? (theirs.stamp, mine.stamp) : (mine.stamp, theirs.stamp)
        guard winner.origin != loser.origin else { return nil }
        func skew(_ origin: String) -> Int64 { origin == replicaID ? 0 : skews[origin] ?? 0 }
        let lead = HybridLogicalClock.difference(skew(winner.origin), skew(loser.origin))
        guard lead > Self.clockWarningMilliseconds else { return nil }
        let gap = HybridLogicalClock.difference(winner.milliseconds, loser.milliseconds)
        guard gap < lead else { return nil }
        func who(_ origin: String) -> String { origin == replicaID ? "this device" : "device \(origin)" }
        let offset = skew(winner.origin) != 0
            ? ClockSkew(device: winner.origin, offsetMilliseconds: skew(winner.origin))
            : ClockSkew(device: loser.origin, offsetMilliseconds: skew(loser.origin))
        return "key '\(key)': the edit of \(who(winner.origin)) won over the edit of \(who(loser.origin)), which may have been made later: "
            + "their stamps are \(ClockOffsetWords.duration(gap)) apart, and \(offset); set the key again where its value should win"
    }

    /// The bytes the synced keys take in the sync state (and this device's replica), and the
    /// suite's other keys in the suite: what a merge must keep under ``mergeByteLimit``.
    private func syncedBytes(_ state: SyncState, keys: Set<String>, live: [String: PrefValue]) -> Int {
        var total = 0
        for (key, entry) in state.entries where keys.contains(key) { total = total &+ entryBytes(key, entry) }
        local.withLock { local in
            for (key, value) in live where !keys.contains(key) { total = total &+ local.sizes.bytes(of: value, forKey: key) }
        }
        return total
    }

    /// About the bytes `entry` takes in the state and the replica under `key`: its value as
    /// JSON, its key and stamp, and the indentation of the pretty-printed file. Measured once per
    /// key and stamp.
    private func entryBytes(_ key: String, _ entry: SyncedEntry) -> Int {
        if let known = local.withLock({ $0.entrySizes[key] }), known.stamp == entry.stamp { return known.bytes }
        var bytes = key.utf8.count + 96
        if let value = entry.value, let text = try? JSONWriter.bytes(value) {
            var lines = 0
            for byte in text where byte == 0x0A { lines &+= 1 }
            bytes = bytes &+ text.count &+ lines &* 8
        }
        local.withLock { $0.entrySizes[key] = (entry.stamp, bytes) }
        return bytes
    }

    /// The most the synced keys (and the suite's other keys) may take after a merge: seven
    /// eighths of the 256 MiB a suite file holds, the rest left to stamps and to the sync state's
    /// and the replica's own words. A merge that would pass it skips (and reports) the value.
    static var mergeByteLimit: Int { SuiteStore.fileSizeLimit / 8 * 7 }

    /// How many keys' clock explanations the state keeps.
    static let keptClockLosses = 100
    /// How many devices' clock readings the state keeps (the furthest ahead).
    static let keptClockReadings = 64

    /// The newest entry of `key` among the replicas' takeable entries that holds `value` and is
    /// newer than `stamp`; `nil` when there is none.
    private func newest(_ key: String, holding value: PrefValue, after stamp: ChangeStamp?, in offers: [[String: SyncedEntry]]) -> SyncedEntry? {
        var best: SyncedEntry?
        for entries in offers {
            guard let entry = entries[key], entry.value == value else { continue }
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

/// What a round's merge may take (``DeviceSync/mergeByteLimit``) and what the synced keys take
/// so far (measured only when a replica brings a change).
struct MergeBudget {
    let limit: Int
    var total: Int?
}
