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

    let openSuite: OpenSuite
    /// What the write path recorded of the commit, for ``revert()``.
    let written: CommittedWrite

    init(suiteName: String, openSuite: OpenSuite, written: CommittedWrite) {
        self.suiteName = suiteName
        path = openSuite.location.path
        changes = written.changes.map { Change(key: $0.key, before: $0.before, after: $0.after) }
        self.openSuite = openSuite
        self.written = written
    }

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
        try openSuite.revert(written)
        DidChangeRelay.primaryStore(of: openSuite)?.postDidChange()
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
        let written = try openSuite.commit(batch.changes, replacingAll: batch.replacingAll)
        postDidChange()
        return SuiteCommit(suiteName: suiteName, openSuite: openSuite, written: written)
    }
}

extension UndoLog {
    /// Records a commit, whose undo is its ``SuiteCommit/revert()``.
    package mutating func record(_ commit: SuiteCommit) {
        record(
            undo: {
                try commit.revert()
                return commit.changes.isEmpty ? nil : .suiteReverted(commit.suiteName)
            },
            failure: { error in Problem(message: "suite \(commit.suiteName) could not be put back (\(error))", secret: nil) })
    }
}
