import Synchronization

/// What this process knows of one suite, and every way that knowledge changes.
///
/// It holds what readers see (``values``: the file as last read or written, with this process's
/// unwritten changes on top), those changes (``PendingChanges``), which version of the file they
/// sit on (``stamp``) and the schema version that file records (``schemaVersion``: never one of
/// the values; every write carries it over unchanged), the encoding of the last write (so that
/// the next one re-encodes only the values changed since), registered defaults, and the
/// observers of changes.
///
/// Its state moves only through the transitions below, each one step under its own lock:
///
/// | transition | called by | what changes |
/// | --- | --- | --- |
/// | ``change(_:to:)``, ``apply(_:replacingAll:)`` | the façade (`set`, `batch`) | `values` at once; the change is pending |
/// | ``beginWrite(over:)`` | the write path | another process's file absorbed first when there is one; the pending changes handed over in a ``SuiteWrite`` |
/// | ``finishWrite(_:encoded:outcome:)`` | the write path | done: the file holds what the write carried; failed: its changes are pending again |
/// | ``absorb(_:)`` | the reload path (another process wrote) | the other file's values, with the pending changes rebased on it; a damaged file moved aside leaves no file |
/// | ``fileRewritten(to:encoded:stamp:schemaVersion:)`` | a revert, a schema migration | the file holds a table of its own; changes made since sit on top |
/// | ``stageCommit(_:replacingAll:over:)``, ``withdraw(_:)``, ``stageRevert(_:over:)`` | a commit and its revert | changes staged over the file as read under the lock; withdrawn when their write fails |
///
/// A write hands over twice — ``beginWrite(over:)`` and ``finishWrite(_:encoded:outcome:)`` —
/// and a reload once. Nothing outside reaches its lock: the façade reads through
/// ``value(forKey:)`` and ``values``; ``OpenSuite`` does the file I/O around the transitions
/// and never edits the state itself. Observers are called inside the lock, in the order of the
/// changes.
///
/// A non-copyable value, stored inline in its ``OpenSuite``: a read costs no more than the
/// lock and the table's look-up.
struct SuiteMemory: ~Copyable, Sendable {
    /// A callback of ``SuiteStore/changes(forKey:)``; `key` `nil` for every key.
    struct Observer {
        let key: String?
        /// Told only of other processes' changes (``SuiteChange/Origin/external``).
        let externalOnly: Bool
        /// Told once per transition, of its first changed key, however many keys changed: for
        /// an observer that only needs to know that something changed (the notification relay).
        let once: Bool
        /// Told of the user's layer (the suite file) only: device sync, which carries that layer
        /// and never an administrator's. Every other observer is told of what readers see.
        var userLayer = false
        let callback: @Sendable (SuiteChange) -> Void
    }

    /// Which observers a change is for.
    enum Audience {
        /// Every observer (no layer is in force: what readers see is the user's layer).
        case all
        /// Those of the user's layer only.
        case userLayer
        /// Those of what readers see.
        case effective

        func includes(_ observer: Observer) -> Bool {
            switch self {
            case .all: return true
            case .userLayer: return observer.userLayer
            case .effective: return !observer.userLayer
            }
        }
    }

    private let state = Mutex(State())

    init() {}

    // MARK: Reading

    /// What a reader sees for `key`: the forced value, the stored value, an administrator's or the
    /// schema's default (``SuiteLayers``), or the registered default.
    func value(forKey key: String) -> PrefValue? {
        state.withLock { state in
            // No layer in force (the usual case): today's read, one test of a flag more (binding
            // the layers would retain and release them at every read).
            guard state.layersInForce else { return state.values[key] ?? state.registered[key] }
            return state.layeredValue(key)
        }
    }

    /// The suite's layers in force (`nil`: none), and as last read (`nil`: not read yet).
    var layers: (inForce: SuiteLayers?, lastRead: SuiteLayers?) {
        state.withLock { ($0.layers, $0.lastRead) }
    }

    /// What readers see of every key: `dictionaryRepresentation()`.
    var effectiveDictionary: [String: PrefValue] {
        state.withLock { state in
            var merged = state.registered
            guard let layers = state.layers else { return merged.merging(state.values.dictionary) { _, stored in stored } }
            for (key, value) in layers.fallback { merged[key] = value }
            for (key, value) in state.values where layers.allows(value, forKey: key) { merged[key] = value }
            for (key, value) in layers.forced { merged[key] = value }
            return merged
        }
    }

    /// What readers see, as one snapshot (copy on write: taking it copies nothing).
    var values: SuiteTable {
        state.withLock { $0.values }
    }

    /// ``values`` and the registered defaults, from one moment.
    var valuesAndDefaults: (values: SuiteTable, defaults: [String: PrefValue]) {
        state.withLock { ($0.values, $0.registered) }
    }

    /// The file version ``values`` were built from (`nil`: no file).
    var stamp: FileStamp? {
        state.withLock { $0.stamp }
    }

    /// The schema version recorded by the file ``values`` were built from (`nil`: none).
    var schemaVersion: MigrationMark? {
        state.withLock { $0.schemaVersion }
    }

    /// The file as ``values`` hold it — its entries, its version and its schema version — when
    /// nothing is pending (``values`` are then exactly the file's); `nil` otherwise.
    var unchangedFile: (entries: SuiteTable, stamp: FileStamp?, schemaVersion: MigrationMark?)? {
        state.withLock { $0.pending.isEmpty ? ($0.values, $0.stamp, $0.schemaVersion) : nil }
    }

    /// Whether some change is not written yet.
    var hasPendingChanges: Bool {
        state.withLock { !$0.pending.isEmpty }
    }

    // MARK: Opening

    /// The file as opened: what readers see first.
    func start(with values: SuiteTable, stamp: FileStamp?, schemaVersion: MigrationMark?) {
        state.withLock { state in
            state.values = values
            state.stamp = stamp
            state.schemaVersion = schemaVersion
        }
    }

    // MARK: Local changes

    /// A local change: readers see it at once; it is written later.
    func change(_ key: String, to value: PrefValue?) {
        state.withLock { state in
            state.change(key, to: value, at: WallClock.now())
        }
    }

    /// Several changes as one: other threads, and other processes, see all or none.
    /// `replacingAll` empties the suite first.
    func apply(_ changes: [(key: String, value: PrefValue?)], replacingAll: Bool) {
        state.withLock { state in
            let now = WallClock.now()
            if replacingAll {
                state.replaceAll(with: changes, at: now)
            } else {
                for (key, value) in changes { state.change(key, to: value, at: now) }
            }
        }
    }

    /// The suite's layers, read again (at open, or after a layer file changed): readers see them
    /// at once, and observers of what readers see are told of every key whose value changed.
    func replaceLayers(_ read: SuiteLayers) {
        state.withLock { state in
            let old = state.layers
            let new = read.isEmpty ? nil : read
            state.lastRead = read
            state.layers = new
            state.layersInForce = new != nil
            guard !state.observers.isEmpty, old != nil || new != nil else { return }
            let keys = (old?.keys ?? []).union(new?.keys ?? [])
            for key in keys.sorted() {
                let user = state.values[key]
                let before = old.map { $0.effective(key, user: user) } ?? user
                let after = new.map { $0.effective(key, user: user) } ?? user
                if before != after { state.notify(SuiteChange(key: key, newValue: after, origin: .external), audience: .effective) }
            }
        }
    }

    /// Fallback values for missing keys, in memory only.
    func register(_ defaults: [String: PrefValue]) {
        state.withLock { $0.registered.merge(defaults) { _, new in new } }
    }

    /// Replaces every fallback value (`setVolatileDomain(_:forName:)` of the registration domain).
    func replaceDefaults(with defaults: [String: PrefValue]) {
        state.withLock { $0.registered = defaults }
    }

    /// Calls `callback` for every change of `key` (every key for `nil`) — only for other
    /// processes' changes when `externalOnly` — and returns the id that ``removeObserver(_:)``
    /// takes. A local change builds no ``SuiteChange`` when no observer wants local changes.
    ///
    /// With `once` (for an observer of every key, `key` nil), it is told once per transition (of
    /// the first key that differs), so that a
    /// file of many changed keys costs it one call and the memory no comparison past the first
    /// difference when no other observer needs each key.
    ///
    /// With `userLayer`, it is told of the user's layer (the suite file) only, as it changes; every
    /// other observer is told of what readers see, through an administrator's layers and the
    /// schema (a change hidden by a forced value is not one).
    func addObserver(
        key: String?, externalOnly: Bool = false, once: Bool = false, userLayer: Bool = false, _ callback: @escaping @Sendable (SuiteChange) -> Void
    ) -> UInt64 {
        state.withLock { state in
            state.nextObserverID += 1
            state.observers[state.nextObserverID] = Observer(key: key, externalOnly: externalOnly, once: once, userLayer: userLayer, callback: callback)
            if !externalOnly { state.localObserverCount += 1 }
            return state.nextObserverID
        }
    }

    func removeObserver(_ id: UInt64) {
        state.withLock { state in
            if let removed = state.observers.removeValue(forKey: id), !removed.externalOnly { state.localObserverCount -= 1 }
        }
    }

    // MARK: The write path

    /// What the write path found at the suite's path, under the file lock.
    enum DiskVersion {
        /// The version these values were built from (`nil`: still no file).
        case unchanged(FileStamp?)
        /// Another version (another process wrote, or a damaged file was moved aside), read.
        case changed(SuiteFile.Loaded)
    }

    /// Hands the pending changes over to a write, with what their bytes are made from. When the
    /// file on disk is another version (`disk`), it is absorbed first — the pending changes
    /// rebased on it, readers told what differs — so that the write carries this process's
    /// changes over the other process's file, key by key. `nil` when nothing is pending.
    func beginWrite(over disk: DiskVersion) -> SuiteWrite? {
        state.withLock { state -> SuiteWrite? in
            if case .changed(let loaded) = disk { state.absorb(loaded) }
            guard !state.pending.isEmpty else { return nil }
            let write = SuiteWrite(
                changes: state.pending, values: state.values, previous: state.encoded, schemaVersion: state.schemaVersion,
                over: state.stamp, spare: state.takeSpare())
            // Room for as many changes as this write took (up to a point): the next burst of sets
            // is likely as large, and growing a dictionary key by key rehashes it a dozen times.
            state.pending = PendingChanges(changes: Dictionary(minimumCapacity: Swift.min(write.changes.changes.count, 1 << 14)))
            return write
        }
    }

    /// The end of a write, one transition whatever happened: when `outcome` is the file replaced
    /// by `encoded` (the bytes of the write's values), the next write starts from those bytes;
    /// otherwise (nothing was written, or an error) the write's changes are pending again, under
    /// any made meanwhile.
    func finishWrite(_ write: consuming SuiteWrite, encoded: EncodedSuite?, outcome: Result<SuiteFile.Replacement, SuiteStoreError>) {
        state.withLock { state in
            if case .success(.replaced(let stamp)) = outcome, let encoded {
                state.stamp = stamp
                // The encoding this write started from is no longer the file's: its arrays are
                // the next update's to write into.
                if let previous = state.encoded { state.spare = previous.buffers }
                state.encoded = encoded
                if state.values.layoutID == encoded.order.layoutID, state.values.changeLogID == encoded.changeLogID {
                    state.values.forgetChanges(before: encoded.changeLogEnd)
                }
            } else {
                state.pending.restore(write.changes)
                state.spare = encoded?.buffers ?? write.spare
            }
        }
    }

    /// The file holds `table` now, at `stamp` (`nil`: no file) and `schemaVersion`, written by
    /// this process outside the write path: a revert, or a schema migration. Changes made since
    /// sit on top of it; readers are told what differs.
    func fileRewritten(to table: SuiteTable, encoded: EncodedSuite?, stamp: FileStamp?, schemaVersion: MigrationMark?) {
        state.withLock { state in
            state.stamp = stamp
            state.schemaVersion = schemaVersion
            state.pending.rebase(ontoWritten: table)
            state.replaceValues(with: state.pending.applied(to: table, showing: state.values), origin: .external)
            // Changes made meanwhile were applied to a copy of `table`, which keeps its layout
            // and change log: the next write can still start from these bytes.
            state.encoded = encoded
        }
    }

    // MARK: Other processes

    /// Another process's file (or none, when a damaged one was moved aside), seen by a reload:
    /// it becomes what readers see, with the pending changes rebased on it. `false`, with
    /// nothing changed, when changes are pending and `loaded` does not say when its keys were
    /// last changed: read it again with its ``ChangeLog``, under the lock.
    @discardableResult
    func absorb(_ loaded: SuiteFile.Loaded) -> Bool {
        state.withLock { state in
            if loaded.times == nil, loaded.movedAside == nil, !state.pending.isEmpty { return false }
            state.absorb(loaded)
            return true
        }
    }

    // MARK: Commits

    /// A commit's changes, staged as local changes over the file as it is now (`file`, at
    /// `stamp`, read under the file lock), with what each key's pending change was before, so
    /// that a failed write can withdraw them.
    struct StagedCommit {
        var changes: [CommittedChange]
        var prior: [String: PendingChange?]
    }

    /// Stages `staged` (all keys removed first when `replacingAll`) over `file`: each key once,
    /// where it was first staged, with the value it was last staged with; keys that already
    /// hold that value are left out.
    func stageCommit(_ staged: [(key: String, value: PrefValue?)], replacingAll: Bool, over file: SuiteFile.Loaded) -> StagedCommit {
        state.withLock { state in
            if state.stamp != file.stamp { state.absorb(file) }
            var changes = staged
            if replacingAll {
                let kept = Set(staged.map(\.key))
                changes = state.values.keys.filter { !kept.contains($0) }.map { (key: $0, value: nil) } + staged
            }
            var order: [String] = []
            var final: [String: PrefValue?] = [:]
            for (key, value) in changes {
                if final.updateValue(value, forKey: key) == nil { order.append(key) }
            }
            var result = StagedCommit(changes: [], prior: [:])
            let now = WallClock.now()
            for key in order {
                let before = state.values[key]
                let after = final[key] ?? nil
                guard before != after else { continue }
                result.changes.append(CommittedChange(key: key, before: before, after: after))
                result.prior[key] = .some(state.pending[key])
                state.change(key, to: after, at: now)
            }
            return result
        }
    }

    /// The commit's write failed: its changes leave memory (readers see the values from
    /// before, and no later write carries them), except where a key changed again since.
    func withdraw(_ commit: StagedCommit) {
        state.withLock { state in
            for change in commit.changes where state.values[change.key] == change.after {
                state.withdraw(change.key, to: change.before, pending: commit.prior[change.key] ?? nil)
            }
        }
    }

    /// Stages the undoing of a commit over `file` (at `stamp`, read under the file lock): each
    /// key that still holds what the commit wrote gets its old value back.
    func stageRevert(_ changes: [CommittedChange], over file: SuiteFile.Loaded) {
        state.withLock { state in
            if state.stamp != file.stamp { state.absorb(file) }
            let now = WallClock.now()
            for change in changes where state.values[change.key] == change.after {
                state.change(change.key, to: change.before, at: now)
            }
        }
    }
}

extension SuiteMemory {
    /// The memory's fields; only the memory's transitions touch them, under its lock (internal,
    /// not private, only because the memory is stored inline in other types).
    struct State {
        var values = SuiteTable()
        var pending = PendingChanges()
        /// The file version `values` were built from (`nil`: no file).
        var stamp: FileStamp?
        /// The schema version that file records (``SchemaVersionMember``; `nil`: none).
        var schemaVersion: MigrationMark?
        var registered: [String: PrefValue] = [:]
        /// The file as this process last wrote it from `values`: the next write of the same
        /// keys encodes only the values changed since, and needs no sorting.
        var encoded: EncodedSuite?
        /// The arrays of the encoding before `encoded`, for the next update to write into
        /// (``EncodedSuite/Buffers``).
        var spare = EncodedSuite.Buffers()
        var observers: [UInt64: Observer] = [:]
        /// The layers in force (`nil`: none, the usual case: reads and notifications are the user's layer's).
        var layers: SuiteLayers?
        /// The layers as last read, in force or not (their report, their schema).
        var lastRead: SuiteLayers?
        /// Whether `layers` is set: what a read tests first.
        var layersInForce = false

        /// A read through the layers in force (``SuiteLayers/effective(_:hash:user:)``), then the
        /// registered defaults.
        func layeredValue(_ key: String) -> PrefValue? {
            guard let layers else { return values[key] ?? registered[key] }
            let hash = SuiteTable.hash(key)
            return layers.effective(key, hash: hash, user: values[key, hash: hash]) ?? registered[key]
        }
        /// How many of `observers` want local changes: a local change with none to tell skips
        /// building its ``SuiteChange`` (the hot path of `set`).
        var localObserverCount = 0
        var nextObserverID: UInt64 = 0

        /// The spare arrays, for a write to encode into (left empty here until it gives arrays back).
        mutating func takeSpare() -> EncodedSuite.Buffers {
            var taken = EncodedSuite.Buffers()
            swap(&taken, &spare)
            return taken
        }

        /// A local change. Two hash look-ups: this is the hot path.
        mutating func change(_ key: String, to value: PrefValue?, at time: Int64) {
            let hash = SuiteTable.hash(key)
            let old = show(value, forKey: key, hash: hash)
            // For a key not yet pending, what readers saw is what the file holds (or held before
            // a pending clear).
            let base = pending.clear.map { $0.before[key] } ?? old
            pending.changes[PendingKey(key, hash: hash), default: PendingChange(time: 0, base: base)].time = time
            notifyLocal(key, old, value)
        }

        /// Takes back a local change that was never written: readers see `value` again, and the
        /// key's pending change is the one it had before (`prior`; `nil`: none).
        mutating func withdraw(_ key: String, to value: PrefValue?, pending prior: PendingChange?) {
            let old = show(value, forKey: key, hash: SuiteTable.hash(key))
            pending[key] = prior
            notifyLocal(key, old, value)
        }

        /// Empties the suite, then makes `changes`: one notification per key whose value
        /// differs in the end, not a removal and a re-add.
        mutating func replaceAll(with changes: [(key: String, value: PrefValue?)], at time: Int64) {
            if pending.clear == nil {
                var before = values.dictionary
                for (key, change) in pending.changes {
                    if let base = change.base { before[key.key] = base } else { before.removeValue(forKey: key.key) }
                }
                pending.clear = PendingClear(time: time, before: before)
            } else {
                pending.clear?.time = time
            }
            pending.changes = [:]
            var after = SuiteTable()
            for (key, value) in changes {
                if let value { after.updateValue(value, forKey: key) } else { after.removeValue(forKey: key) }
                pending.changes[PendingKey(key), default: PendingChange(time: 0, base: pending.clear?.before[key])].time = time
            }
            replaceValues(with: after, origin: .local)
        }

        /// A file read from disk: another process's version, or none when a damaged one was moved
        /// aside (readers' values then stay, and the next write writes all of them).
        mutating func absorb(_ loaded: SuiteFile.Loaded) {
            guard loaded.movedAside == nil else {
                stamp = nil
                encoded = nil
                return
            }
            let times = loaded.times ?? loaded.stamp.map { ChangeTimes.unrecorded(modifiedAt: $0.modifiedTime) } ?? ChangeTimes(floor: 0, keys: [:])
            absorb(loaded.entries, stamp: loaded.stamp, schemaVersion: loaded.schemaVersion, times: times)
        }

        mutating func absorb(_ file: SuiteTable, stamp newStamp: FileStamp?, schemaVersion newVersion: MigrationMark?, times: ChangeTimes) {
            pending.rebase(onto: file, changedAt: times)
            stamp = newStamp
            schemaVersion = newVersion
            replaceValues(with: pending.applied(to: file, showing: values), origin: .external)
        }

        /// Replaces `values` and tells observers about every key that differs. The last write's
        /// encoding is of the old table: it goes.
        mutating func replaceValues(with newValues: SuiteTable, origin: SuiteChange.Origin) {
            encoded = nil
            if !observers.isEmpty {
                let local = origin == .local
                // With layers in force, a change the layers hide tells no one: every key is looked at.
                let eachKey = layers != nil || observers.values.contains { !$0.once && !(local && $0.externalOnly) }
                var toldOnce = false
                for (key, old) in values where newValues[key] != old {
                    if tell(key, old, newValues[key], origin: origin, once: !toldOnce) { toldOnce = true }
                    if !eachKey, toldOnce { break }
                }
                if eachKey || !toldOnce {
                    for (key, new) in newValues where values[key] == nil {
                        if tell(key, nil, new, origin: origin, once: !toldOnce) { toldOnce = true }
                        if !eachKey, toldOnce { break }
                    }
                }
            }
            values = newValues
        }

        /// Puts `value` in `values` (removes the key for `nil`); returns what was there.
        @inline(__always)
        private mutating func show(_ value: PrefValue?, forKey key: String, hash: Int) -> PrefValue? {
            value.map { values.updateValue($0, forKey: key, hash: hash) } ?? values.removeValue(forKey: key, hash: hash)
        }

        @inline(__always)
        private mutating func notifyLocal(_ key: String, _ old: PrefValue?, _ value: PrefValue?) {
            if localObserverCount > 0, old != value {
                tell(key, old, value, origin: .local)
            }
        }

        /// Tells the observers of a change of the user's value of `key` from `old` to `new`: with
        /// no layer in force, everyone, as it is; with layers, the user-layer observers as it is and
        /// the others as what readers now see (nobody, when that did not change). Returns whether
        /// the observers of what readers see were told.
        @discardableResult
        private func tell(_ key: String, _ old: PrefValue?, _ new: PrefValue?, origin: SuiteChange.Origin, once: Bool = true) -> Bool {
            guard let layers else {
                notify(SuiteChange(key: key, newValue: new, origin: origin), once: once)
                return true
            }
            notify(SuiteChange(key: key, newValue: new, origin: origin), once: once, audience: .userLayer)
            let before = layers.effective(key, user: old)
            let after = layers.effective(key, user: new)
            guard before != after else { return false }
            notify(SuiteChange(key: key, newValue: after, origin: origin), once: once, audience: .effective)
            return true
        }

        /// Tells the observers in `audience` that want `change`; those told once per transition
        /// only when `once` (the transition's first change).
        func notify(_ change: SuiteChange, once: Bool = true, audience: Audience = .all) {
            let local = change.origin == .local
            for observer in observers.values
            where (observer.key == nil || observer.key == change.key) && !(local && observer.externalOnly) && (once || !observer.once)
                && audience.includes(observer)
            {
                observer.callback(change)
            }
        }
    }
}
