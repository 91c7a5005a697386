#if Fleet
import Foundation
import RizqCore
import RizqPrefs

/// What a fleet suite knows besides its values: the engine's epoch and the revision it has
/// read up to, when it was last current, each key's change stamp, and the writes it queued.
/// Persisted in the state suite (``FleetCache``) after the values it describes.
struct FleetCacheState: Sendable {
    var epoch: String?
    var revision: Int64 = 0
    var syncedAt: Date?
    var stamps: [String: ChangeStamp] = [:]
    var queued: [String: FleetChange] = [:]

    /// What changed since the last persist.
    var dirtyHead = false
    var dirtyStamps: Set<String> = []
    var dirtyQueue: Set<String> = []

    var isDirty: Bool { dirtyHead || !dirtyStamps.isEmpty || !dirtyQueue.isEmpty }

    // The state suite's keys.
    static let headKey = "head"
    static let stampPrefix = "stamp/"
    static let queuedPrefix = "queued/"

    /// The state as a state suite holds it.
    init(entries: [String: PrefValue]) {
        if case .dictionary(let head)? = entries[Self.headKey] {
            if case .string(let epoch)? = head["epoch"] { self.epoch = epoch }
            if case .int(let revision)? = head["revision"] { self.revision = Int64(revision) }
            if case .date(let date)? = head["syncedAt"] { self.syncedAt = date }
        }
        for (key, value) in entries {
            if key.hasPrefix(Self.stampPrefix), case .string(let text) = value, let stamp = ChangeStamp(parsing: text) {
                stamps[String(key.dropFirst(Self.stampPrefix.count))] = stamp
            } else if key.hasPrefix(Self.queuedPrefix), case .dictionary(let fields) = value,
                case .string(let text)? = fields["stamp"], let stamp = ChangeStamp(parsing: text)
            {
                let name = String(key.dropFirst(Self.queuedPrefix.count))
                let removed = fields["removed"] == .bool(true)
                queued[name] = FleetChange(key: name, value: removed ? nil : fields["value"], stamp: stamp)
            }
        }
    }

    /// The greatest stamp known: the clock starts after it.
    var latestStamp: ChangeStamp? {
        (Array(stamps.values) + queued.values.map(\.stamp)).max()
    }

    /// The dirty parts as state-suite entries (`nil`: remove), and clears the marks.
    mutating func takeDirtyEntries() -> [(String, PrefValue?)] {
        var entries: [(String, PrefValue?)] = []
        if dirtyHead {
            var head: [String: PrefValue] = ["revision": .int(Int(revision))]
            if let epoch { head["epoch"] = .string(epoch) }
            if let syncedAt { head["syncedAt"] = .date(syncedAt) }
            entries.append((Self.headKey, .dictionary(head)))
        }
        for key in dirtyStamps {
            entries.append((Self.stampPrefix + key, stamps[key].map { .string($0.description) }))
        }
        for key in dirtyQueue {
            guard let change = queued[key] else {
                entries.append((Self.queuedPrefix + key, nil))
                continue
            }
            var fields: [String: PrefValue] = ["stamp": .string(change.stamp.description), "removed": .bool(change.value == nil)]
            if let value = change.value { fields["value"] = value }
            entries.append((Self.queuedPrefix + key, .dictionary(fields)))
        }
        dirtyHead = false
        dirtyStamps = []
        dirtyQueue = []
        return entries
    }
}
#endif
