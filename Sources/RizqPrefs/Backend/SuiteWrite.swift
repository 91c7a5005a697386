/// One write of a suite file: the pending changes it carries, and how they become the file's
/// bytes — decided once, by ``SuiteReplica/beginWrite(ifFileIs:)``, when it takes them.
///
/// ``SuiteBackend/write(_:)`` carries it out under the file lock, then reports to the replica
/// whether it was done (``SuiteReplica/writeDone(encoded:stamp:)``,
/// ``SuiteReplica/fileRewritten(to:encoded:stamp:)``) or failed (``SuiteReplica/writeFailed(_:)``,
/// which makes its changes pending again).
struct SuiteWrite: Sendable {
    /// How the changes become bytes.
    enum Plan: Sendable {
        /// Nobody else wrote since this process last read or wrote the file, and only values
        /// changed since its last write: the new bytes, already encoded from the last ones
        /// (the changed values encoded, the rest copied).
        case encoded(EncodedSuite)
        /// Nobody else wrote, but keys came or went (or nothing was written yet): encode this
        /// table whole, reusing the key order of the last write while it is still the table's,
        /// with the schema version the file records (kept as it is).
        case encodeWhole(SuiteTable, order: SuiteTable.Order?, schemaVersion: Int?)
        /// Another process replaced the file: read it, merge these changes into it key by key
        /// (``merged(into:changedAt:)``), encode the result with the schema version that file
        /// records.
        case merge
    }

    /// The changes taken out of the replica; put back if the write fails.
    let changes: PendingChanges
    let plan: Plan
    /// The version of the file the plan was decided on (`nil`: no file): `.encoded` and
    /// `.encodeWhole` bytes go in only over it.
    let over: FileStamp?

    /// The table to write over `file`, another process's version whose keys were last changed
    /// at `times`.
    func merged(into file: SuiteTable, changedAt times: ChangeTimes) -> SuiteTable {
        var mine = changes
        mine.rebase(onto: file, changedAt: times)
        return mine.applied(to: file)
    }
}
