#if canImport(Glibc)
import Glibc
#endif

/// `removePersistentDomain` not yet written: when, and what the file held then.
struct PendingClear: Sendable {
    var time: Int64
    var before: [String: PrefValue]
}

/// This process's changes that the file does not hold yet, and the one rule that decides, key
/// by key, between them and what another process wrote meanwhile (``rebase(onto:changedAt:)``).
///
/// ``SuiteMemory`` keeps the changes pending; a ``SuiteWrite`` carries the ones it took to the
/// file, and gives them back if the write fails (``restore(_:)``).
struct PendingChanges: Sendable {
    /// Key by key, the last change of each (keyed with the hash the memory's table uses:
    /// ``PendingKey``).
    var changes: [PendingKey: PendingChange] = [:]
    /// A pending `removePersistentDomain`: the changes above were made after it.
    var clear: PendingClear?

    /// Whether there is nothing to write.
    var isEmpty: Bool { changes.isEmpty && clear == nil }

    /// The pending change of `key`, if any.
    subscript(key: String) -> PendingChange? {
        get { changes[PendingKey(key)] }
        set { changes[PendingKey(key)] = newValue }
    }

    /// `file` with these changes on top (on an empty suite when a clear is pending): each
    /// pending key with the value `shown` has for it (the memory's table, which holds every
    /// pending change's value), or removed where `shown` has none.
    func applied(to file: SuiteTable, showing shown: SuiteTable) -> SuiteTable {
        var result = clear == nil ? file : SuiteTable()
        for key in changes.keys {
            if let value = shown[key.key, hash: key.hash] {
                result.updateValue(value, forKey: key.key, hash: key.hash)
            } else {
                result.removeValue(forKey: key.key, hash: key.hash)
            }
        }
        return result
    }

    /// Another process wrote `file`, whose keys were last changed at `times`: a key changed
    /// there after our change keeps its value and our change is dropped; the other changes stay
    /// pending, now over `file`. A pending clear becomes removals of the keys not changed there
    /// after it.
    mutating func rebase(onto file: SuiteTable, changedAt times: ChangeTimes) {
        var kept: [PendingKey: PendingChange] = [:]
        kept.reserveCapacity(changes.count)
        for (key, var mine) in changes {
            let theirs = file[key.key, hash: key.hash]
            if theirs != mine.base, mine.time < times.time(of: key.key) { continue }
            mine.base = theirs
            kept[key] = mine
        }
        if let cleared = clear {
            for (key, value) in file where kept[PendingKey(key)] == nil {
                let writtenAfterClear = cleared.before[key] != value && times.time(of: key) > cleared.time
                // A removal: the memory's table holds no value for a key the clear removed and
                // nothing changed since (a later change would be pending).
                if !writtenAfterClear { kept[PendingKey(key)] = PendingChange(time: cleared.time, base: value) }
            }
            clear = nil
        }
        changes = kept
    }

    /// This process wrote `file`: the changes made since sit on top of it.
    mutating func rebase(ontoWritten file: SuiteTable) {
        for key in Array(changes.keys) { changes[key]?.base = file[key.key, hash: key.hash] }
    }

    /// A write of `taken` failed: its changes are pending again, under any made meanwhile.
    mutating func restore(_ taken: PendingChanges) {
        for (key, change) in taken.changes {
            if changes[key] == nil {
                changes[key] = change
            } else {
                // The newer change was made over our unwritten one: the file still holds what
                // the older change was made over.
                changes[key]?.base = change.base
            }
        }
        if let cleared = taken.clear, clear == nil {
            clear = cleared
            for key in Array(changes.keys) where taken.changes[key] == nil {
                changes[key]?.base = cleared.before[key.key]
            }
        }
    }
}
