import RizqPrefs

extension SyncRound {
    /// Step 4: what the merged state holds for a synced key and the suite does not (a refused
    /// local value aside) is written to the suite in one commit, under the suite's lock. While
    /// sync runs, what it writes is remembered until the suite's observer has seen it, so that
    /// it is not taken for a local change.
    mutating func applyToSuite() throws(SyncError) {
        var changes: [(key: String, value: PrefValue?)] = []
        for key in keys.sorted() where !refusedKeys.contains(key) {
            guard let entry = state.entries[key], entry.value != live[key] else { continue }
            changes.append((key, entry.value))
        }
        guard !changes.isEmpty else { return }
        if sync.local.withLock({ $0.running }) {
            sync.local.withLock { local in for change in changes { local.applied[change.key] = .some(change.value) } }
        }
        report.merged = try apply(changes)
    }

    /// Writes other devices' changes to the suite in one commit; returns the keys changed. A
    /// key that another process changed between the round's read and the commit gets that
    /// change back: it was made after everything this round merged, and the next round
    /// records it with a later stamp.
    private func apply(_ changes: [(key: String, value: PrefValue?)]) throws(SyncError) -> [String] {
        let commit = try self.commit(changes)
        let overtaken = commit.changes.filter { $0.before != live[$0.key] }
        if !overtaken.isEmpty {
            _ = try self.commit(overtaken.map { ($0.key, $0.before) })
        }
        let kept = Set(overtaken.map(\.key))
        return commit.changes.map(\.key).filter { !kept.contains($0) }
    }

    /// One commit of `changes` to the suite (`nil` removes the key).
    private func commit(_ changes: [(key: String, value: PrefValue?)]) throws(SyncError) -> SuiteCommit {
        let store = sync.store
        do {
            return try store.commit { batch in
                for change in changes {
                    if let value = change.value { try batch.set(value, forKey: change.key) } else { batch.removeObject(forKey: change.key) }
                }
            }
        } catch let error as SuiteStoreError {
            throw .storage(error)
        } catch {
            throw .storage(.writeFailed(path: store.location.path, reason: "\(error)"))
        }
    }
}
