import RizqCore

extension SyncRound {
    /// Takes note of how far ahead of this device's clock other devices' stamps are: for each
    /// origin, its newest stamp, measured when first seen (``ClockSkew``); and of what the
    /// other devices' replicas say of this device's stamps.
    mutating func measureClocks(_ reads: [ReplicaFolder.Read]) {
        let warning = DeviceSync.clockWarningMilliseconds
        let clock = sync.clock
        let replicaID = sync.replicaID
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
        if state.clocks.count > DeviceSync.keptClockReadings {
            let kept = state.clocks.sorted { $0.value.ahead > $1.value.ahead }.prefix(DeviceSync.keptClockReadings)
            state.clocks = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        state.reports = reports
    }

    /// Explains, in the state and the report, each key of `entries` whose merge with this
    /// device's entry a clock that is off may decide (``explain(key:_:_:)``); the first time for
    /// those two stamps, as an event and a warning in the log too.
    mutating func explainClockLosses(_ entries: [String: SyncedEntry]) {
        for (key, theirs) in entries {
            guard let mine = state.entries[key], mine.stamp != theirs.stamp,
                let explanation = explain(key: key, mine, theirs)
            else { continue }
            state.clockLosses[key] = explanation
            report.decidedByClock[key] = explanation
            let mark = "\(key)\u{0}\(mine.stamp)\u{0}\(theirs.stamp)"
            if sync.local.withLock({ $0.reportedLosses.insert(mark).inserted }) {
                events.append(.decidedByClock(key: key, explanation: explanation))
                DeviceSync.logger.warning("suite \(sync.store.suiteName): \(explanation)")
            }
        }
    }

    /// The devices whose clocks are far off, in the report; each said once per device and
    /// offset (in warning-sized steps), as an event and a warning in the log.
    mutating func reportClockSkews() {
        report.clockSkews = sync.clockSkews(of: state)
        for skew in report.clockSkews {
            let bucket = skew.offsetMilliseconds / max(1, DeviceSync.clockWarningMilliseconds)
            if sync.local.withLock({ $0.reportedSkews.updateValue(bucket, forKey: skew.device) != bucket }) {
                events.append(.clockSkew(skew))
                DeviceSync.logger.warning("suite \(sync.store.suiteName): \(skew)")
            }
        }
    }

    /// Why the merge of `key` between `mine` and `theirs` may have been decided by clocks that
    /// are off rather than by which edit came later: the two stamps come from devices whose
    /// clocks are further apart (the winner's ahead of the loser's, ``skews``) than the stamps
    /// are from each other, so the edit that lost may have been made later. `nil` when the
    /// values agree, the clocks do not differ by more than ``DeviceSync/clockWarningOffset``,
    /// or the stamps are further apart than the clocks.
    private func explain(key: String, _ mine: SyncedEntry, _ theirs: SyncedEntry) -> String? {
        guard mine.value != theirs.value else { return nil }
        let (winner, loser) = theirs.stamp > mine.stamp ? (theirs.stamp, mine.stamp) : (mine.stamp, theirs.stamp)
        guard winner.origin != loser.origin else { return nil }
        let replicaID = sync.replicaID
        let skews = self.skews
        func skew(_ origin: String) -> Int64 { origin == replicaID ? 0 : skews[origin] ?? 0 }
        let lead = HybridLogicalClock.difference(skew(winner.origin), skew(loser.origin))
        guard lead > DeviceSync.clockWarningMilliseconds else { return nil }
        let gap = HybridLogicalClock.difference(winner.milliseconds, loser.milliseconds)
        guard gap < lead else { return nil }
        func who(_ origin: String) -> String { origin == replicaID ? "this device" : "device \(origin)" }
        let offset = skew(winner.origin) != 0
            ? ClockSkew(device: winner.origin, offsetMilliseconds: skew(winner.origin))
            : ClockSkew(device: loser.origin, offsetMilliseconds: skew(loser.origin))
        return "key '\(key)': the edit of \(who(winner.origin)) won over the edit of \(who(loser.origin)), which may have been made later: "
            + "their stamps are \(ClockOffsetWords.duration(gap)) apart, and \(offset); set the key again where its value should win"
    }
}
