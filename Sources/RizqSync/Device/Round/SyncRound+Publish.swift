import Dispatch
import RizqPrefs

extension SyncRound {
    /// Step 6: this device's replica — the synced keys' entries and what this device knows of
    /// the others' clocks — written to the folder, only after the initial sync (or on the first
    /// device), and only when it changed.
    mutating func publish() throws(SyncError) {
        guard state.publishes, folderExists else { return }
        var document = ReplicaDocument(
            replica: sync.replicaID, app: sync.paths.appID, suite: sync.paths.suiteName, entries: state.entries.filter { keys.contains($0.key) })
        document.clocks = state.clocks.mapValues(\.ahead)
        if let keys = try write(document, check: state.configuration.engineCheck) {
            report.published = true
            events.append(.published(keys: keys))
        }
    }

    /// Step 7: the conflict copies merged, archived (merged and saved, so they can go).
    mutating func archiveMergedCopies() {
        for copy in mergedCopies {
            if let archived = ConflictArchive(paths: sync.paths).archive(copy.path) {
                report.conflictCopies[copy.path] = archived
                events.append(.conflictCopyMerged(path: archived, keys: copy.keys))
            }
        }
    }

    /// Writes this device's replica when it changed; the keys whose entries changed in it (also
    /// a change made during the initial sync, published with the first merge), or `nil` when
    /// the file already held it. Syncthing (when its API is configured) is asked to rescan the
    /// file at once.
    private func write(_ document: ReplicaDocument, check: SyncEngineCheck) throws(SyncError) -> [String]? {
        let bytes = try document.encoded()
        let file = try folder.replicaFile(sync.replicaID)
        var wrote = false
        var before: [String: SyncedEntry] = [:]
        do {
            try file.withLock { current, replace in
                wrote = false
                guard current != bytes else { return }
                // What the file held: a replica this device wrote (unreadable counts as empty).
                before = current.flatMap { try? ReplicaDocument(parsing: $0, path: file.path).entries } ?? [:]
                wrote = try replace(bytes)
            }
        } catch let error as SuiteStoreError {
            throw .storage(error)
        } catch {
            throw .storage(.writeFailed(path: file.path, reason: "\(error)"))
        }
        guard wrote else { return nil }
        if case .syncthing = check {
            let probe = EngineProbe(check: check, folder: folder.path)
            let path = file.path
            DispatchQueue.global().async { probe.nudge(path) }
        }
        return Set(document.entries.keys).union(before.keys).filter { document.entries[$0] != before[$0] }.sorted()
    }
}
