import RizqCore
import RizqPrefs

extension SyncRound {
    /// Step 2: the suite's local changes of synced keys. A value that differs from the state's
    /// entry is a change made here, stamped when this process saw it (or now; a key that just
    /// joined gets the baseline stamp) — unless another replica holds that very value with a
    /// newer stamp (this device applied it, then stopped before saving: the value keeps its
    /// stamp). Credentials and values beyond the limits are not recorded
    /// (``refusal(of:forKey:)``).
    mutating func recordLocalChanges() {
        live = sync.store.entries
        for key in keys.sorted() {
            let value = live[key]
            let entry = state.entries[key]
            if let entry, entry.value == value { continue }
            let joining = entry == nil && !state.knownKeys.contains(key)
            state.knownKeys.insert(key)
            if entry == nil, value == nil { continue }
            if let value, let adopted = newest(key, holding: value, after: entry?.stamp) {
                state.entries[key] = adopted
                continue
            }
            if let value, refusal(of: value, forKey: key) { continue }
            let stamp: ChangeStamp
            if let seen = pending[key], seen.value == value {
                stamp = seen.stamp
            } else if joining {
                stamp = sync.baselineStamp
            } else {
                stamp = sync.clock.now()
            }
            state.entries[key] = SyncedEntry(value: value, stamp: stamp)
            state.clockLosses.removeValue(forKey: key)
            report.recorded.append(key)
            if value != nil { sync.local.withLock { $0.vetted[key] = stamp } }
        }
    }

    /// Whether the local `value` of `key` is not synced: it looks like a credential, or it
    /// would take the synced keys over the limits. A refusal is in the report, and the first
    /// time for this value an event (and, for a credential, a warning in the log).
    private mutating func refusal(of value: PrefValue, forKey key: String) -> Bool {
        if let reason = SecretGate.refusal(key: key, value: value) {
            refusedKeys.insert(key)
            report.refused[key] = reason
            if sync.local.withLock({ $0.reportedRefusals.updateValue(value, forKey: key) != value }) {
                events.append(.secretRefused(key: key, reason: reason))
                DeviceSync.logger.warning("not syncing key '\(key)' of suite \(sync.store.suiteName): its value looks like a credential (\(reason))")
            }
            return true
        }
        guard !state.configuration.limits.isUnlimited else { return false }
        var others: [String: PrefValue] = [:]
        for (name, other) in state.entries where name != key && keys.contains(name) {
            if let otherValue = other.value { others[name] = otherValue }
        }
        guard let limit = state.configuration.limits.violation(setting: value, forKey: key, others: others) else { return false }
        refusedKeys.insert(key)
        report.refused[key] = "over the limit of \(limit)"
        if sync.local.withLock({ $0.reportedRefusals.updateValue(value, forKey: key) != value }) {
            events.append(.quotaExceeded(key: key, limit: limit))
        }
        return true
    }

    /// The newest entry of `key` among the replicas' takeable entries that holds `value` and is
    /// newer than `stamp`; `nil` when there is none.
    private func newest(_ key: String, holding value: PrefValue, after stamp: ChangeStamp?) -> SyncedEntry? {
        var best: SyncedEntry?
        for (_, entries) in offers {
            guard let entry = entries[key], entry.value == value else { continue }
            if let stamp, entry.stamp <= stamp { continue }
            if best == nil || entry.stamp > (best?.stamp ?? entry.stamp) { best = entry }
        }
        return best
    }
}
