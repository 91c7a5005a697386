#if Fleet
import Foundation
import Logging
import RizqCore
import RizqPrefs

/// What this host knows of one fleet suite, and the only code that changes it: catch-up reads
/// from the engine, this host's own committed writes, and its queued writes. An actor, so that
/// one catch-up runs at a time and every change of the cache goes one way.
///
/// The rule for every value that reaches the cache: it is applied only when its stamp is not
/// older than the stamp the cache holds for the key (and a queued write of this host that is
/// newer still holds the key). Each key's view is therefore monotonic, whatever order catch-ups,
/// notifications and this host's own writes arrive in. Every stamp read is shown to the
/// clock first, so that this host's next edit is stamped after everything it has seen.
actor FleetReplica {
    let suite: String
    let engine: any FleetEngine
    let cache: FleetCache
    let clock: HybridLogicalClock
    private let logger: Logger
    /// Rows per catch-up read.
    static let pageSize = 1000

    init(suite: String, engine: any FleetEngine, cache: FleetCache, clock: HybridLogicalClock, logger: Logger) {
        self.suite = suite
        self.engine = engine
        self.cache = cache
        self.clock = clock
        self.logger = logger
    }

    /// The revision the cache has read up to.
    nonisolated var revision: Int64 { cache.state.withLock { $0.revision } }

    /// Reads everything above the cache's revision — or the whole suite, when the cache was
    /// built against another incarnation of it, has not caught up since tombstones it never
    /// saw were removed, or has read further than the engine's head (a backup restored: the
    /// revisions it read above the head are gone, and new writes will take those numbers
    /// again) — and applies it. Rows the engine cannot read are skipped and reported once,
    /// in one line for the whole catch-up.
    func catchUp() async throws(FleetError) {
        var (epoch, after) = cache.state.withLock { ($0.epoch, $0.revision) }
        var wholeRead: Set<String>?
        var unreadable: [FleetUnreadableRow] = []
        while true {
            let batch = try await engine.changes(suite: suite, after: after, limit: Self.pageSize)
            if wholeRead == nil, let reason = Self.wholeReadReason(epoch: epoch, after: after, head: batch.head) {
                // Read the suite whole, from revision 0: keys the read does not meet were
                // deleted while this cache was not looking (their tombstones are gone), or
                // belong to another incarnation or an undone history of the suite.
                if epoch != batch.head.epoch || after > batch.head.revision {
                    // A new cache is nothing to report; a suite that changed under this cache is.
                    if epoch == nil {
                        logger.info("reading the fleet suite whole", metadata: ["suite": "\(suite)", "reason": "\(reason)"])
                    } else {
                        logger.warning("reading fleet suite \(suite) whole: \(reason)", metadata: ["suite": "\(suite)"])
                    }
                    // This cache's stamps and revision say nothing about what the engine
                    // holds now: the engine's values are taken as they are, older stamps too.
                    cache.state.withLock { state in
                        for key in state.stamps.keys { state.dirtyStamps.insert(key) }
                        state.stamps = [:]
                        state.revision = 0
                        state.epoch = batch.head.epoch
                        state.dirtyHead = true
                    }
                } else {
                    logger.info("reading the fleet suite whole", metadata: ["suite": "\(suite)", "reason": "\(reason)"])
                }
                epoch = batch.head.epoch
                wholeRead = []
                if after != 0 {
                    after = 0
                    continue
                }
            }
            wholeRead?.formUnion(batch.entries.map(\.change.key))
            // An unreadable row's key keeps what the cache holds for it (a whole read does not
            // remove it): its value in the engine is unknown, not absent.
            wholeRead?.formUnion(batch.unreadable.map(\.key))
            unreadable += batch.unreadable
            apply(batch.entries, epoch: batch.head.epoch, through: batch.hasMore ? batch.lastRevision : batch.head.revision)
            epoch = batch.head.epoch
            after = batch.lastRevision ?? after
            if !batch.hasMore { break }
        }
        if let seen = wholeRead { removeUnseen(seen) }
        cache.state.withLock { state in
            state.syncedAt = Date()
            state.dirtyHead = true
        }
        cache.schedulePersist()
        if !unreadable.isEmpty { report(unreadable) }
    }

    /// Why a catch-up from `after` must read the suite whole instead, or `nil`.
    static func wholeReadReason(epoch: String?, after: Int64, head: FleetSuiteHead) -> String? {
        if epoch != head.epoch { return "a new cache, or another incarnation of the suite" }
        if after > head.revision {
            return "the engine's revision \(head.revision) is below the \(after) this cache had read: the suite went back (a backup restored); its values are taken as the engine now holds them"
        }
        if after < head.purgedThrough { return "tombstones removed since revision \(after)" }
        return nil
    }

    /// Says once, for a whole catch-up, which rows could not be read (a few keys named, never
    /// a value).
    private func report(_ rows: [FleetUnreadableRow]) {
        let shown = 5
        let keys = rows.prefix(shown).map { "'\($0.key.count > 80 ? String($0.key.prefix(80)) + "…" : $0.key)'" }.joined(separator: ", ")
        let more = rows.count > shown ? " and \(rows.count - shown) more" : ""
        let revisions = rows.count == 1 ? "revision \(rows[0].revision)" : "revisions \(rows[0].revision)–\(rows[rows.count - 1].revision)"
        logger.warning(
            "\(rows.count) row\(rows.count == 1 ? "" : "s") of fleet suite \(suite) could not be read and \(rows.count == 1 ? "was" : "were") skipped (\(revisions); keys \(keys)\(more)): \(rows[0].reason); the cache keeps what it held for \(rows.count == 1 ? "that key" : "those keys"): write them again to repair them",
            metadata: ["suite": "\(suite)", "count": "\(rows.count)"])
    }

    /// A notification: the write it carries is applied at once when it directly follows the
    /// revision read up to (revisions are numbered in commit order, so nothing was missed);
    /// a bare revision or a gap (a superseded write takes a revision too) is a catch-up.
    ///
    /// An announced revision already read is nothing to do — unless it is news: a write at or
    /// below the revision read up to, with a stamp newer than the one the cache holds for its
    /// key (or for a key the cache does not know), or a bare revision there, means the engine's
    /// counter went back (a backup restored). A catch-up then notices, and reads the suite
    /// whole.
    func receive(_ notice: FleetNotice) async throws(FleetError) {
        let (revision, epoch, held) = cache.state.withLock { state in
            (state.revision, state.epoch, notice.entry.flatMap { state.stamps[$0.change.key] })
        }
        if let announced = notice.revision, announced <= revision {
            guard let entry = notice.entry else {
                try await catchUp()
                return
            }
            if let held, entry.change.stamp <= held { return }
            try await catchUp()
            return
        }
        if let entry = notice.entry, entry.revision == revision + 1, epoch != nil {
            apply([entry], epoch: nil, through: entry.revision)
            return
        }
        try await catchUp()
    }

    /// A write of this host that the engine committed: into the cache at once (the revision
    /// read up to is left alone: the revisions between are read by the next catch-up).
    func applyOwn(_ change: FleetChange) {
        apply([FleetEntry(change: change, revision: 0)], epoch: nil, through: nil)
        cache.state.withLock { state in
            if state.queued[change.key].map({ $0.stamp <= change.stamp }) == true {
                state.queued[change.key] = nil
                state.dirtyQueue.insert(change.key)
            }
        }
        cache.schedulePersist()
    }

    /// Keeps a write for later, durably, and shows it in the cache now.
    func enqueue(_ change: FleetChange) throws(FleetError) {
        cache.state.withLock { state in
            if let existing = state.queued[change.key], existing.stamp > change.stamp { return }
            state.queued[change.key] = change
            state.dirtyQueue.insert(change.key)
        }
        apply([FleetEntry(change: change, revision: 0)], epoch: nil, through: nil, ownQueued: true)
        try cache.persistAndWait()
    }

    /// The queued writes, oldest stamp first.
    nonisolated var queued: [FleetChange] {
        cache.state.withLock { Array($0.queued.values) }.sorted { $0.stamp < $1.stamp }
    }

    /// Sends the queued writes, oldest first, each under the same rule as any write. Stops at
    /// the first that finds the engine unavailable (it stays queued).
    /// - Returns: what became of each write sent.
    func flushQueue() async -> [(change: FleetChange, outcome: Result<FleetWrite, FleetError>)] {
        var outcomes: [(FleetChange, Result<FleetWrite, FleetError>)] = []
        for change in queued {
            let decision: FleetWriteDecision
            do {
                decision = try await engine.write(change, suite: suite)
            } catch {
                if error.isEngineUnavailable { break }
                outcomes.append((change, .failure(error)))
                dequeue(change)
                continue
            }
            switch decision {
            case .applied(let revision):
                outcomes.append((change, .success(.committed(revision: revision, stamp: change.stamp))))
                dequeue(change)
            case .superseded(let winner):
                clock.observe(winner)
                logger.warning("a queued fleet write was superseded by a later change", metadata: ["suite": "\(suite)", "key": "\(change.key)"])
                outcomes.append((change, .failure(.superseded(key: change.key, by: winner))))
                dequeue(change)
            }
        }
        if !outcomes.isEmpty { cache.schedulePersist() }
        return outcomes
    }

    private func dequeue(_ change: FleetChange) {
        cache.state.withLock { state in
            if state.queued[change.key]?.stamp == change.stamp {
                state.queued[change.key] = nil
                state.dirtyQueue.insert(change.key)
            }
        }
    }

    /// Records the stamps of the entries their stamps allow, applies their values to the cache,
    /// then records (for a catch-up) the revision read through — in that order.
    ///
    /// The stamps come first so that whoever sees a change in the cache (a change stream, the
    /// watch command printing its origin) finds its stamp there already. On disk that order is
    /// harmless: the revision read through is recorded only after the values (``FleetCache``'s
    /// persist flushes the values first), so after a crash between the two the next catch-up
    /// reads these entries again, and an entry whose stamp the cache holds but whose value it
    /// does not show is applied again.
    private func apply(_ entries: [FleetEntry], epoch: String?, through revision: Int64?, ownQueued: Bool = false) {
        var refused: [(key: String, refusal: ClockOffsetRefusal)] = []
        defer {
            for (key, refusal) in refused {
                logger.warning(
                    "the fleet's value of '\(key)' is not taken: \(refusal.description); rizq-prefs fleet set on a host whose clock is right replaces it",
                    metadata: ["key": "\(key)", "host": "\(refusal.stamp.origin)"])
            }
        }
        let accepted: [FleetEntry] = cache.state.withLock { state in
            var accepted: [FleetEntry] = []
            for entry in entries {
                let change = entry.change
                // A stamp further ahead of this host's clock than the maximum offset (a host
                // whose clock is wrong, a forged row) is not taken: it would win every later
                // write of the key on every host. Reported, naming its host.
                if let refusal = clock.observe(change.stamp) {
                    refused.append((change.key, refusal))
                    continue
                }
                if !ownQueued, let queued = state.queued[change.key], queued.stamp > change.stamp { continue }
                if let held = state.stamps[change.key] {
                    if change.stamp < held { continue }
                    // The same change again (a notification of this host's own write, a
                    // re-read after a restart): only if the cache does not show it yet.
                    if change.stamp == held, cache.values.prefValue(forKey: change.key) == change.value { continue }
                }
                accepted.append(entry)
                state.stamps[change.key] = change.stamp
                state.dirtyStamps.insert(change.key)
            }
            return accepted
        }
        cache.apply(accepted.map { ($0.change.key, $0.change.value) })
        cache.state.withLock { state in
            if let epoch, state.epoch != epoch {
                state.epoch = epoch
                state.dirtyHead = true
            }
            if let revision, revision > state.revision {
                state.revision = revision
                state.dirtyHead = true
            }
        }
        if !accepted.isEmpty { cache.schedulePersist() }
    }

    /// After a whole read: the keys the engine no longer has (and this host has not queued)
    /// leave the cache.
    private func removeUnseen(_ seen: Set<String>) {
        let gone = cache.state.withLock { state -> [String] in
            let keys = Set(cache.values.keys).union(state.stamps.keys)
            return keys.filter { !seen.contains($0) && state.queued[$0] == nil }
        }
        guard !gone.isEmpty else { return }
        cache.apply(gone.map { ($0, nil) })
        cache.state.withLock { state in
            for key in gone {
                state.stamps[key] = nil
                state.dirtyStamps.insert(key)
            }
        }
    }
}
#endif
