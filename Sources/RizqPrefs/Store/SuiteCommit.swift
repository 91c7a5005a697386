/// Changes that ``SuiteStore/commit(_:)`` wrote durably, with what each key held before and the
/// suite file exactly as it was, so that ``revert()`` can undo them.
///
/// For work that spans several suites (or a suite and something else, such as a keyring) and
/// must happen all or not at all: commit each part, and revert the commits made so far when a
/// later part fails.
///
/// ```swift
/// let first = try settings.commit { batch in try batch.set(7, forKey: "current_streak") }
/// do {
///     try activity.commit { batch in try batch.set(history, forKey: "days") }
/// } catch {
///     try first.revert()   // settings' file is byte for byte what it was
///     throw error
/// }
/// ```
public struct SuiteCommit: Sendable {
    /// One key's change.
    public struct Change: Sendable, Equatable {
        /// The key.
        public let key: String
        /// What the suite held before the commit (`nil`: absent).
        public let before: PrefValue?
        /// What the commit wrote (`nil`: removed).
        public let after: PrefValue?
    }

    /// The suite's name.
    public let suiteName: String
    /// The suite file's path.
    public let path: String
    /// The keys whose values the commit changed, in the order they were staged. Keys staged with
    /// the value they already had are not listed (and caused no write).
    public let changes: [Change]

    let backend: SuiteBackend
    /// The file before the commit, its bytes and what they hold; `nil` when there was no file.
    let originalFile: (bytes: [UInt8], entries: SuiteTable)?
    /// The file the commit wrote; `nil` when nothing needed writing.
    let writtenStamp: FileStamp?

    /// Undoes the commit, durably.
    ///
    /// If nobody has written the suite file since the commit, the file is put back byte for
    /// byte as it was before (or removed, if there was none). Otherwise the commit is undone key
    /// by key: each key that still holds what the commit wrote gets its old value back, and keys
    /// changed since (by this process or another) keep their newer values. This process's
    /// unwritten changes stay pending either way. Reverting twice changes nothing the second time.
    /// - Throws: ``SuiteStoreError/writeFailed(path:reason:)`` when the file cannot be written;
    ///   the revert then stays pending in memory and the next flush retries it.
    public func revert() throws(SuiteStoreError) {
        try backend.revert(self)
    }
}

extension SuiteStore {
    /// Stages changes as ``batch(_:)`` does, then writes them at once, durably (as ``flush()``
    /// does), and returns a ``SuiteCommit`` that can undo them.
    ///
    /// This process's changes made before the call are written first and are not part of the
    /// commit. When the write fails, the commit's changes are withdrawn from memory as well:
    /// readers see the values from before, and nothing of the commit is written later.
    ///
    /// ```swift
    /// let commit = try store.commit { batch in
    ///     try batch.set("dark", forKey: "theme_mode")
    ///     try batch.set(true, forKey: "rizq_welcome_shown")
    /// }
    /// // …later, if something else failed:
    /// try commit.revert()
    /// ```
    /// - Throws: what `body` throws (nothing applied), or a ``SuiteStoreError`` such as
    ///   ``SuiteStoreError/writeFailed(path:reason:)`` (nothing applied, in memory or on disk).
    @discardableResult
    public func commit(_ body: (inout SuiteBatch) throws -> Void) throws -> SuiteCommit {
        var batch = SuiteBatch(store: self)
        try body(&batch)
        return try backend.commit(batch.changes, replacingAll: batch.replacingAll, suiteName: suiteName)
    }
}

extension SuiteBackend {
    func commit(_ staged: [(key: String, value: PrefValue?)], replacingAll: Bool, suiteName: String) throws(SuiteStoreError) -> SuiteCommit {
        let result: Result<SuiteCommit, SuiteStoreError> = queue.sync {
            do throws(SuiteStoreError) {
                return .success(try commitOnQueue(staged, replacingAll: replacingAll, suiteName: suiteName))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    func revert(_ commit: SuiteCommit) throws(SuiteStoreError) {
        let result: Result<Void, SuiteStoreError> = queue.sync {
            do throws(SuiteStoreError) {
                try revertOnQueue(commit)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private func commitOnQueue(_ staged: [(key: String, value: PrefValue?)], replacingAll: Bool, suiteName: String) throws(SuiteStoreError) -> SuiteCommit {
        if let openError { throw openError }
        try writePending()
        return try file.withLock { () throws(SuiteStoreError) -> SuiteCommit in
            // Start from the file as it is now, another process's version included, and keep its
            // exact bytes: a revert puts them back.
            let disk = try Self.load(file, lockForRepair: false)
            let original = disk.bytes.map { (bytes: $0, entries: disk.entries) }
            let applied = state.withLock { state -> (changes: [SuiteCommit.Change], prior: [String: PendingChange?]) in
                if state.stamp != disk.stamp { state.absorb(disk.entries, stamp: disk.stamp) }
                var changes = staged
                if replacingAll {
                    let kept = Set(staged.map(\.key))
                    changes = state.values.keys.filter { !kept.contains($0) }.map { (key: $0, value: nil) } + staged
                }
                // Each key once, where it was first staged, with the value it was last staged with.
                var order: [String] = []
                var final: [String: PrefValue?] = [:]
                for (key, value) in changes {
                    if final.updateValue(value, forKey: key) == nil { order.append(key) }
                }
                var effective: [SuiteCommit.Change] = []
                var prior: [String: PendingChange?] = [:]
                let now = PendingChange.now()
                for key in order {
                    let before = state.values[key]
                    let after = final[key] ?? nil
                    guard before != after else { continue }
                    effective.append(SuiteCommit.Change(key: key, before: before, after: after))
                    prior[key] = .some(state.pending[key])
                    state.change(key, to: after, at: now)
                }
                return (effective, prior)
            }
            guard !applied.changes.isEmpty else {
                return SuiteCommit(suiteName: suiteName, path: location.path, changes: [], backend: self, originalFile: original, writtenStamp: nil)
            }
            do throws(SuiteStoreError) {
                try writePending(holdingLock: true)
            } catch {
                // Take the commit back out of memory, so that readers see the values from before
                // and no later write carries it to the file.
                state.withLock { state in
                    for change in applied.changes where state.values[change.key] == change.after {
                        state.withdraw(change.key, to: change.before, pending: applied.prior[change.key] ?? nil)
                    }
                }
                throw error
            }
            let written = state.withLock { $0.stamp }
            return SuiteCommit(suiteName: suiteName, path: location.path, changes: applied.changes, backend: self, originalFile: original, writtenStamp: written)
        }
    }

    private func revertOnQueue(_ commit: SuiteCommit) throws(SuiteStoreError) {
        guard let written = commit.writtenStamp, !commit.changes.isEmpty else { return }
        if let openError { throw openError }
        try file.withLock { () throws(SuiteStoreError) in
            if try file.stamp() == written {
                // Nobody wrote since the commit: put the old file back, byte for byte.
                if let original = commit.originalFile {
                    let stamp = try file.replace(bytes: original.bytes)
                    state.withLock { $0.wrote(original.entries, stamp: stamp) }
                } else {
                    try file.remove()
                    state.withLock { $0.wrote(SuiteTable(), stamp: nil) }
                }
                return
            }
            // Someone wrote since: undo key by key, and leave what was changed after the commit.
            let (disk, diskStamp) = try Self.load(file, lockForRepair: false).parsed
            state.withLock { state in
                if state.stamp != diskStamp { state.absorb(disk, stamp: diskStamp) }
                let now = PendingChange.now()
                for change in commit.changes where state.values[change.key] == change.after {
                    state.change(change.key, to: change.before, at: now)
                }
            }
            try writePending(holdingLock: true)
        }
    }
}
