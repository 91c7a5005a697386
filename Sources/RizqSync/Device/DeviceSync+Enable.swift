import Foundation
import RizqPrefs
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension SuiteStore {
    /// Enables device sync for this suite with `configuration` (what `rizq-prefs sync enable`
    /// does), or changes the configuration of a suite already synced, and returns its
    /// ``DeviceSync`` (not started: call ``DeviceSync/start()``).
    ///
    /// The first time, the values the synced keys hold now become this device's starting point:
    /// on the first device (``DeviceSyncConfiguration/isFirstDevice``) they are stamped now and
    /// published at once; on any other device they count as older than every change made
    /// elsewhere, and nothing is published until another device's replica has been merged.
    /// Pointing the suite at another folder is an account change, as on iOS: the values then
    /// become those of the new folder's devices (``SyncChangeReason/accountChange``).
    ///
    /// `replicaID` names this device (default: this machine's ``/RizqCore/ReplicaIdentity``).
    /// Where the folder lies in a Syncthing folder, the lock and temporary files of replicas are
    /// added to its `.stignore`.
    /// - Throws: ``SyncError/invalidConfiguration(_:)``, or why the state cannot be written.
    @discardableResult
    public func enableDeviceSync(_ configuration: DeviceSyncConfiguration, replicaID: String? = nil) throws(SyncError) -> DeviceSync {
        if let problem = configuration.problem { throw .invalidConfiguration(problem) }
        let sync = try DeviceSync.shared(for: self, replicaID: replicaID, opening: true)
        try sync.configure(configuration)
        if case .folderMarker(let marker) = configuration.engineCheck {
            ReplicaFolder(path: configuration.folder).ensureIgnorePatterns(marker: marker)
        } else {
            ReplicaFolder(path: configuration.folder).ensureIgnorePatterns()
        }
        return sync
    }

    /// This suite's device sync, when it was enabled (by this process or another, or by
    /// `rizq-prefs sync enable`); `nil` when it was not. One instance per suite and device in
    /// a process.
    /// - Throws: why the sync state cannot be read.
    public func deviceSync(replicaID: String? = nil) throws(SyncError) -> DeviceSync? {
        do {
            return try DeviceSync.shared(for: self, replicaID: replicaID, opening: false)
        } catch .notEnabled {
            return nil
        }
    }
}

extension DeviceSync {
    /// The instances of this process, one per sync state file and replica id.
    private static let instances = Mutex<[String: WeakSync]>([:])

    private struct WeakSync: @unchecked Sendable {
        weak var sync: DeviceSync?
    }

    /// The process's instance for `store` (made when there is none); when not `opening`, only
    /// for a suite whose sync was enabled.
    static func shared(for store: SuiteStore, replicaID: String?, opening: Bool) throws(SyncError) -> DeviceSync {
        let candidate = try DeviceSync(opening: store, replicaID: replicaID)
        let key = candidate.stateFile.path + "\u{0}" + candidate.replicaID
        if let existing = instances.withLock({ $0[key]?.sync }) { return existing }
        if !opening {
            guard let state = try candidate.loadState() else { throw .notEnabled(suite: store.suiteName) }
            for entry in state.entries.values { candidate.clock.observe(entry.stamp) }
            candidate.local.withLock { $0.snapshot = state }
        }
        return instances.withLock { table in
            if let raced = table[key]?.sync { return raced }
            table[key] = WeakSync(sync: candidate)
            return candidate
        }
    }

    /// Writes `configuration` into the sync state (see
    /// ``RizqPrefs/SuiteStore/enableDeviceSync(_:replicaID:)``).
    func configure(_ requested: DeviceSyncConfiguration) throws(SyncError) {
        // One spelling of the folder, kept and compared: `DIR/` or `DIR/.` is the same folder.
        var configuration = requested
        configuration.folder = DeviceSyncConfiguration.normalized(requested.folder)
        _ = store.synchronize()
        let marks = store.keysMarkedForSync
        let live = store.entries
        let state = try locked { current, save throws(SyncError) -> SyncState in
            var state: SyncState
            if let current {
                let existing = try parseState(current)
                for entry in existing.entries.values { clock.observe(entry.stamp) }
                if DeviceSyncConfiguration.sameFolder(existing.configuration.folder, configuration.folder) {
                    state = existing
                    // The spelling kept so far stays (a link or `..` to the same folder).
                    state.configuration = configuration
                    state.configuration.folder = DeviceSyncConfiguration.normalized(existing.configuration.folder)
                } else {
                    // Another folder: an account change. What the suite holds becomes a
                    // baseline that the new folder's devices override.
                    state = SyncState(configuration: configuration)
                    state.markedKeys = existing.markedKeys
                    state.accountChangePending = true
                    baseline(&state, marks: marks, live: live)
                }
            } else {
                state = SyncState(configuration: configuration)
                baseline(&state, marks: marks, live: live)
            }
            guard try save(state) else { return state }
            return state
        }
        local.withLock { $0.snapshot = state }
    }

    /// Records what the synced keys hold now as this device's starting point: stamped now on
    /// the first device, with the baseline stamp (older than any change) elsewhere.
    private func baseline(_ state: inout SyncState, marks: Set<String>, live: [String: PrefValue]) {
        if state.configuration.includesMarkedKeys { state.markedKeys.formUnion(marks) }
        for key in state.syncedKeys.sorted() {
            state.knownKeys.insert(key)
            guard let value = live[key], SecretGate.refusal(key: key, value: value) == nil else { continue }
            state.entries[key] = SyncedEntry(value: value, stamp: state.configuration.isFirstDevice ? clock.now() : baselineStamp)
        }
    }

    /// Removes device `id`'s replica from the folder (Syncthing spreads the removal) and ignores
    /// it from now on unless it publishes something newer. Its changes merged so far stay: this
    /// device's replica carries them. Run it for a device that is gone for good.
    /// - Returns: whether there was a replica file to remove (`false`: the device was forgotten
    ///   before, and its file is gone).
    /// - Throws: ``SyncError/unknownDevice(id:known:)`` when this suite knows no device `id`
    ///   (none merged, none forgotten, no replica file of that name): nothing is changed. `known`
    ///   lists the devices merged and those whose replica is in the folder.
    @discardableResult
    public func forgetDevice(_ id: String) throws(SyncError) -> Bool {
        guard id != replicaID else { throw .cannotForgetSelf(id) }
        guard ReplicaIdentity.isValid(id) else { throw .replicaIdentity(reason: ReplicaIdentityError.invalid(id).description) }
        var removed = false
        try withState { state throws(SyncError) in
            let folder = ReplicaFolder(path: state.configuration.folder)
            let file = try folder.replicaFile(id)
            var info = stat()
            let present = lstat(file.path, &info) == 0
            guard present || state.devices[id] != nil || state.forgotten[id] != nil else {
                // Known: those merged, and those whose replica is in the folder.
                let inFolder = folder.names().replicas.compactMap(ReplicaFolder.replicaID(ofFile:)).filter { $0 != replicaID }
                throw .unknownDevice(id: id, known: Set(state.devices.keys).union(inFolder).sorted())
            }
            var newest = state.devices[id]
            if let bytes = try? file.read(), let document = try? ReplicaDocument(parsing: bytes, path: file.path) {
                // Only stamps this device's clock would take: a forged one must not make the
                // device unforgettable.
                let taken = document.entries.values.map(\.stamp).filter { clock.refusal(of: $0) == nil }
                newest = ([newest].compactMap { $0 } + taken).max()
            }
            removed = present
            do throws(SuiteStoreError) {
                try file.remove()
            } catch {
                throw .storage(error)
            }
            state.devices.removeValue(forKey: id)
            state.forgotten[id] = newest ?? ChangeStamp(milliseconds: 0, counter: 0, origin: id)
        }
        return removed
    }
}
