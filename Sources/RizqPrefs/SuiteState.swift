#if canImport(Glibc)
import Glibc
#endif

/// A local change not yet written, with when it was made, so that a newer write by another
/// process can win over it (the last writer wins, key by key).
struct PendingChange: Sendable {
    /// The new value, or `nil` for a removal.
    var value: PrefValue?
    /// Wall-clock time of the change, in nanoseconds since 1970 (comparable with file times).
    var time: Int64

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

/// What one process knows of a suite: the file as last read (`disk`), its own changes not yet
/// written (`pending`), and what readers see (`values` = `disk` with `pending` on top).
struct SuiteState {
    struct Observer {
        let key: String?
        let callback: @Sendable (SuiteChange) -> Void
    }

    var disk: [String: PrefValue]
    var values: [String: PrefValue]
    var pending: [String: PendingChange] = [:]
    /// When `removePersistentDomain` emptied the suite; the next write starts from `{}`.
    var clearTime: Int64?
    /// The file version `disk` was read from (`nil`: no file).
    var stamp: FileStamp?
    var registered: [String: PrefValue] = [:]
    var writeScheduled = false
    var reloadScheduled = false
    var observers: [UInt64: Observer] = [:]
    var nextObserverID: UInt64 = 0

    init(disk: [String: PrefValue], stamp: FileStamp?) {
        self.disk = disk
        self.values = disk
        self.stamp = stamp
    }

    var hasPendingChanges: Bool { !pending.isEmpty || clearTime != nil }

    mutating func notify(_ change: SuiteChange) {
        for observer in observers.values where observer.key == nil || observer.key == change.key {
            observer.callback(change)
        }
    }

    /// A local change: visible at once, written later.
    mutating func change(_ key: String, to value: PrefValue?) {
        let old = values[key]
        pending[key] = PendingChange(value: value, time: PendingChange.now())
        if let value { values[key] = value } else { values.removeValue(forKey: key) }
        if !observers.isEmpty, old != value {
            notify(SuiteChange(key: key, newValue: value, origin: .local))
        }
    }

    /// Replaces `values` and tells observers about every key that differs.
    mutating func replaceValues(with newValues: [String: PrefValue], origin: SuiteChange.Origin) {
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
    static func applying(_ pending: [String: PendingChange], clearTime: Int64?, to base: [String: PrefValue]) -> [String: PrefValue] {
        var result = clearTime == nil ? base : [:]
        for (key, change) in pending {
            if let value = change.value { result[key] = value } else { result.removeValue(forKey: key) }
        }
        return result
    }

    /// Folds a file that another process wrote (`newDisk`, modified at `fileTime`) into local
    /// changes made since `oldDisk` was read: a key the other process changed after our change
    /// keeps its value, and our change is dropped; every other local change stays pending.
    /// A pending clear becomes removals of the keys the other process did not write after it.
    static func reconcile(
        oldDisk: [String: PrefValue], newDisk: [String: PrefValue], fileTime: Int64,
        pending: inout [String: PendingChange], clearTime: inout Int64?
    ) {
        var changedByOthers = Set<String>()
        for (key, value) in newDisk where oldDisk[key] != value { changedByOthers.insert(key) }
        for key in oldDisk.keys where newDisk[key] == nil { changedByOthers.insert(key) }
        for key in changedByOthers {
            if let mine = pending[key], mine.time < fileTime { pending.removeValue(forKey: key) }
        }
        if let clear = clearTime {
            for key in newDisk.keys where pending[key] == nil && !(changedByOthers.contains(key) && fileTime > clear) {
                pending[key] = PendingChange(value: nil, time: clear)
            }
            clearTime = nil
        }
    }

    /// Another process's file, seen by inotify: merge it under the pending changes.
    mutating func absorb(_ newDisk: [String: PrefValue], stamp newStamp: FileStamp?) {
        Self.reconcile(
            oldDisk: disk, newDisk: newDisk, fileTime: newStamp?.modifiedTime ?? PendingChange.now(),
            pending: &pending, clearTime: &clearTime)
        disk = newDisk
        stamp = newStamp
        replaceValues(with: Self.applying(pending, clearTime: clearTime, to: disk), origin: .external)
    }
}
