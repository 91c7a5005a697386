#if canImport(Glibc)
import Glibc
#endif

/// A local change not yet written, with when it was made and what the file held for the key
/// before, so that a newer write by another process can win over it (the last writer wins,
/// key by key).
struct PendingChange: Sendable {
    /// The new value, or `nil` for a removal.
    var value: PrefValue?
    /// Wall-clock time of the change, in nanoseconds since 1970 (comparable with file times).
    var time: Int64
    /// The key's value in the file this change was made over (`nil`: absent).
    var base: PrefValue?

    /// The coarse clock: a few nanoseconds to read, and the clock the kernel stamps file
    /// modification times with.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

/// `removePersistentDomain` not yet written: when, and what the file held then.
struct PendingClear: Sendable {
    var time: Int64
    var before: [String: PrefValue]
}

/// What one process knows of a suite: what readers see (`values`: the file as last read with
/// this process's unwritten changes on top) and those changes (`pending`, `clear`).
struct SuiteState {
    struct Observer {
        let key: String?
        let callback: @Sendable (SuiteChange) -> Void
    }

    var values: SuiteTable
    var pending: [String: PendingChange] = [:]
    var clear: PendingClear?
    /// The file version `values` was built from (`nil`: no file).
    var stamp: FileStamp?
    var registered: [String: PrefValue] = [:]
    /// The file as this process last wrote it from `values`: the next write of the same keys
    /// encodes only the values changed since, and needs no sorting.
    var image: SuiteImage?
    var writeScheduled = false
    var reloadScheduled = false
    var observers: [UInt64: Observer] = [:]
    var nextObserverID: UInt64 = 0

    init(values: SuiteTable, stamp: FileStamp?) {
        self.values = values
        self.stamp = stamp
    }

    var hasPendingChanges: Bool { !pending.isEmpty || clear != nil }

    mutating func notify(_ change: SuiteChange) {
        for observer in observers.values where observer.key == nil || observer.key == change.key {
            observer.callback(change)
        }
    }

    /// A local change: visible at once, written later. Two hash look-ups: this is the hot path.
    mutating func change(_ key: String, to value: PrefValue?, at time: Int64) {
        let old = show(value, forKey: key)
        // For a key not yet pending, what readers saw is what the file holds (or held before a
        // pending clear).
        let base = clear.map { $0.before[key] } ?? old
        Self.record(&pending[key, default: PendingChange(value: nil, time: 0, base: base)], value, time)
        notifyLocal(key, old, value)
    }

    /// Takes back a local change that was never written: readers see `value` again, and the
    /// key's pending change is the one it had before (`prior`; `nil`: none).
    mutating func withdraw(_ key: String, to value: PrefValue?, pending prior: PendingChange?) {
        let old = show(value, forKey: key)
        pending[key] = prior
        notifyLocal(key, old, value)
    }

    /// Puts `value` in `values` (removes the key for `nil`); returns what was there.
    @inline(__always)
    private mutating func show(_ value: PrefValue?, forKey key: String) -> PrefValue? {
        value.map { values.updateValue($0, forKey: key) } ?? values.removeValue(forKey: key)
    }

    @inline(__always)
    private mutating func notifyLocal(_ key: String, _ old: PrefValue?, _ value: PrefValue?) {
        if !observers.isEmpty, old != value {
            notify(SuiteChange(key: key, newValue: value, origin: .local))
        }
    }

    private static func record(_ change: inout PendingChange, _ value: PrefValue?, _ time: Int64) {
        change.value = value
        change.time = time
    }

    /// Empties the suite locally; the next write starts from `{}`.
    mutating func clearAll(at time: Int64) {
        if clear == nil {
            var before = values.dictionary
            for (key, change) in pending {
                if let base = change.base { before[key] = base } else { before.removeValue(forKey: key) }
            }
            clear = PendingClear(time: time, before: before)
        } else {
            clear?.time = time
        }
        pending = [:]
    }

    /// Replaces `values` and tells observers about every key that differs. The kept image of
    /// the file is of the old table: it goes.
    mutating func replaceValues(with newValues: SuiteTable, origin: SuiteChange.Origin) {
        image = nil
        if !observers.isEmpty {
            for (key, old) in values where newValues[key] != old {
                notify(SuiteChange(key: key, newValue: newValues[key], origin: origin))
            }
            for (key, new) in newValues where values[key] == nil {
                notify(SuiteChange(key: key, newValue: new, origin: origin))
            }
        }
        values = newValues
    }

    /// `base` with `pending` applied (on an empty suite when a clear is pending).
    static func applying(_ pending: [String: PendingChange], clear: PendingClear?, to base: SuiteTable) -> SuiteTable {
        var result = clear == nil ? base : SuiteTable()
        for (key, change) in pending {
            if let value = change.value { result.updateValue(value, forKey: key) } else { result.removeValue(forKey: key) }
        }
        return result
    }

    /// Folds a file that another process wrote (`newDisk`, modified at `fileTime`) into local
    /// changes: a key the other process changed after our change keeps its value and our change
    /// is dropped; other local changes stay pending, now over `newDisk`. A pending clear becomes
    /// removals of the keys the other process did not write after it.
    static func reconcile(
        newDisk: SuiteTable, fileTime: Int64, pending: inout [String: PendingChange], clear: inout PendingClear?
    ) {
        var kept: [String: PendingChange] = [:]
        kept.reserveCapacity(pending.count)
        for (key, var mine) in pending {
            let theirs = newDisk[key]
            if theirs != mine.base, mine.time < fileTime { continue }
            mine.base = theirs
            kept[key] = mine
        }
        if let cleared = clear {
            for (key, value) in newDisk where kept[key] == nil {
                let writtenAfterClear = cleared.before[key] != value && fileTime > cleared.time
                if !writtenAfterClear { kept[key] = PendingChange(value: nil, time: cleared.time, base: value) }
            }
            clear = nil
        }
        pending = kept
    }

    /// Another process's file, seen by inotify: merge it under the pending changes.
    mutating func absorb(_ newDisk: SuiteTable, stamp newStamp: FileStamp?) {
        Self.reconcile(newDisk: newDisk, fileTime: newStamp?.modifiedTime ?? PendingChange.now(), pending: &pending, clear: &clear)
        stamp = newStamp
        replaceValues(with: Self.applying(pending, clear: clear, to: newDisk), origin: .external)
    }

    /// After this process wrote `written` (merged with another process's file): changes made
    /// meanwhile now sit on top of it.
    mutating func wrote(_ written: SuiteTable, stamp newStamp: FileStamp?) {
        stamp = newStamp
        for key in Array(pending.keys) { pending[key]?.base = written[key] }
        replaceValues(with: Self.applying(pending, clear: clear, to: written), origin: .external)
    }
}
