import RizqPrefs

/// The one conflict rule of device sync: per key, the entry with the newest
/// ``RizqCore/ChangeStamp`` wins — values and tombstones alike.
///
/// The rule is commutative, associative and idempotent: merging replicas in any order, any
/// number of times, gives the same result, so it does not matter in which order the sync engine
/// delivers files, or whether it delivers one twice.
enum ReplicaMerge {
    /// The winner of two entries for one key (either may be missing).
    static func winner(_ left: SyncedEntry?, _ right: SyncedEntry?) -> SyncedEntry? {
        guard let left else { return right }
        guard let right else { return left }
        return left.stamp >= right.stamp ? left : right
    }

    /// Merges `incoming` into `entries`, for the keys `accepts` lets in; returns the keys whose
    /// entry changed. An entry is taken as it is: never stamped again.
    @discardableResult
    static func merge(_ incoming: [String: SyncedEntry], into entries: inout [String: SyncedEntry], accepts: (String) -> Bool) -> [String] {
        var changed: [String] = []
        for (key, theirs) in incoming where accepts(key) {
            if let mine = entries[key], mine.stamp >= theirs.stamp { continue }
            entries[key] = theirs
            changed.append(key)
        }
        return changed
    }

    /// Merges `incoming` into `entries`, key by key in key order; an entry that would win is
    /// taken only when `admits` lets it (`admits` gets the key, the winner, and the entry it
    /// would replace — what keeps a merge within a size). Returns the keys whose entry changed.
    @discardableResult
    static func merge(
        _ incoming: [String: SyncedEntry], into entries: inout [String: SyncedEntry], admits: (String, SyncedEntry, SyncedEntry?) -> Bool
    ) -> [String] {
        var changed: [String] = []
        for key in incoming.keys.sorted() {
            guard let theirs = incoming[key] else { continue }
            let mine = entries[key]
            if let mine, mine.stamp >= theirs.stamp { continue }
            guard admits(key, theirs, mine) else { continue }
            entries[key] = theirs
            changed.append(key)
        }
        return changed
    }
}
