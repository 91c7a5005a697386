/// One key's change by a commit.
struct CommittedChange: Sendable {
    let key: String
    /// What the suite held before the commit (`nil`: absent).
    let before: PrefValue?
    /// What the commit wrote (`nil`: removed).
    let after: PrefValue?
}

/// What a commit wrote: enough to undo it.
struct CommittedWrite: Sendable {
    /// The keys whose values the commit changed, in the order they were staged.
    var changes: [CommittedChange]
    /// The file before the commit, its bytes, what they hold, the schema version they record and
    /// when their keys were last changed; `nil` when there was no file.
    var originalFile: (bytes: [UInt8], entries: SuiteTable, schemaVersion: MigrationMark?, times: ChangeTimes?)?
    /// The file the commit wrote; `nil` when nothing needed writing.
    var writtenStamp: FileStamp?
}

extension OpenSuite {
    /// ``SuiteStore/commit(_:)``: this process's earlier changes are written first (they are not
    /// part of the commit); then, under the file lock, the file is read as it is now (its exact
    /// bytes kept for a revert), the commit is staged over it and written by the write path.
    func commit(_ staged: [(key: String, value: PrefValue?)], replacingAll: Bool) throws(SuiteStoreError) -> CommittedWrite {
        try onQueue { () throws(SuiteStoreError) -> CommittedWrite in
            if let openError { throw openError }
            try writePending()
            return try file.withLock { lock throws(SuiteStoreError) -> CommittedWrite in
                removeStaleTemporariesOnce(lock)
                let disk = try file.load(lock)
                let original = disk.bytes.map { (bytes: $0, entries: disk.entries, schemaVersion: disk.schemaVersion, times: disk.times) }
                let commit = memory.stageCommit(staged, replacingAll: replacingAll, over: disk)
                guard !commit.changes.isEmpty else {
                    return CommittedWrite(changes: [], originalFile: original, writtenStamp: nil)
                }
                do throws(SuiteStoreError) {
                    try write(&lock)
                } catch {
                    memory.withdraw(commit)
                    throw error
                }
                return CommittedWrite(changes: commit.changes, originalFile: original, writtenStamp: memory.stamp)
            }
        }
    }

    /// ``SuiteCommit/revert()``: under the file lock, the file from before the commit comes back
    /// byte for byte if nobody wrote since; otherwise the commit is undone key by key through the
    /// write path.
    ///
    /// The file put back keeps the change times of the file it copies (its segment in the
    /// ``ChangeLog`` repeats that file's record): the commit is undone as if it had never been
    /// made. Left unrecorded, every key of the restored file would count as changed at the
    /// revert, and another process's change made after the commit (over the commit's value)
    /// but written after the revert would be dropped as the earlier one.
    func revert(_ commit: CommittedWrite) throws(SuiteStoreError) {
        try onQueue { () throws(SuiteStoreError) in
            guard let written = commit.writtenStamp, !commit.changes.isEmpty else { return }
            if let openError { throw openError }
            try file.withLock { lock throws(SuiteStoreError) in
                if try file.stamp() == written {
                    if let original = commit.originalFile {
                        let times = original.times.map { ChangeLog.Changes(restoring: $0, now: WallClock.now()) }
                        switch try file.replace(bytes: original.bytes, changes: times, over: written, lock) {
                        case .replaced(let stamp):
                            memory.fileRewritten(to: original.entries, encoded: nil, stamp: stamp, schemaVersion: original.schemaVersion)
                            return
                        case .lockLost:
                            // Another writer may be inside its write: undo key by key after it.
                            try file.retake(&lock)
                        case .fileChanged:
                            break
                        }
                    } else {
                        try file.remove()
                        memory.fileRewritten(to: SuiteTable(), encoded: nil, stamp: nil, schemaVersion: nil)
                        return
                    }
                }
                memory.stageRevert(commit.changes, over: try file.load(lock))
                try write(&lock)
            }
        }
    }
}
