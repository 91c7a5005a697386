extension OpenSuite {
    /// The suite file as a schema migration finds it, read under the file lock.
    struct MigrationInput {
        /// The file's keys and values (the schema version member taken out).
        var entries: SuiteTable
        /// The schema version the file records; `nil` when it records none.
        var schemaVersion: MigrationMark?
        /// Whether there is a file (a damaged one was moved aside and counts as none).
        var exists: Bool
    }

    /// Writes a migrated suite: `entries` and `schemaVersion` in one atomic replace of the file.
    /// Handed to the body of ``migrate(_:)``, which calls it at most once, last.
    typealias MigrationWriter = (_ entries: SuiteTable, _ schemaVersion: MigrationMark) throws(SuiteStoreError) -> Void

    /// The open path's migration step (a schema's stages run here), on the suite's queue: this
    /// process's pending changes are written first (in the file's shape as it is), then, under
    /// the file lock, the file is read as it is now and handed to `body`, with the writer that
    /// replaces it. Another process that migrates the suite at the same time waits for the lock
    /// and then finds the file migrated: the stages run once.
    ///
    /// The writer is the one write of the migrated file: the new table and its schema version
    /// together, encoded whole and put in place by ``SuiteFile/replace(bytes:changes:over:_:)`` (temporary
    /// file, fsync, rename), so that a crash leaves the old file or the migrated one. Readers of
    /// this process then see the migrated values (``SuiteMemory/fileRewritten(to:encoded:stamp:schemaVersion:)``).
    /// When `body` writes nothing, readers see the file as it was read.
    ///
    /// What `body` does besides calling the writer (other suites, a keyring) is its own to undo;
    /// its outcome is returned as it is.
    /// - Throws: ``SuiteStoreError`` when the suite could not be opened, its pending changes
    ///   written, or its file locked or read; `body` did not run.
    func migrate<Failure: Error>(
        _ body: (MigrationInput, MigrationWriter) -> Result<Void, Failure>
    ) throws(SuiteStoreError) -> Result<Void, Failure> {
        try onQueue { () throws(SuiteStoreError) -> Result<Void, Failure> in
            if let openError { throw openError }
            try writePending()
            return try file.withLock { lock throws(SuiteStoreError) -> Result<Void, Failure> in
                removeStaleTemporariesOnce(lock)
                // The file as this process already holds it, when it has not changed since:
                // a large suite is not parsed a second time.
                let disk: SuiteFile.Loaded
                let current = try file.stamp()
                if let known = memory.unchangedFile, known.stamp == current {
                    disk = SuiteFile.Loaded(entries: known.entries, stamp: known.stamp, schemaVersion: known.schemaVersion)
                } else {
                    disk = try file.load(lock)
                }
                var written = false
                // The writer is a closure of this body only: the lock it writes under never
                // leaves it.
                let outcome = body(MigrationInput(entries: disk.entries, schemaVersion: disk.schemaVersion, exists: disk.stamp != nil)) {
                    entries, version throws(SuiteStoreError) in
                    let encoded = try EncodedSuite(suite: entries, reusing: nil, schemaVersion: version)
                    guard case .replaced(let stamp) = try file.replace(bytes: encoded.bytes, over: disk.stamp, lock) else {
                        // Migrated from a version that is no longer the file: nothing was written.
                        throw .writeFailed(
                            path: location.path,
                            reason: "the file or its lock file was replaced by another program during the migration, so the migrated version was not written; open the suite again")
                    }
                    written = true
                    memory.fileRewritten(to: entries, encoded: encoded, stamp: stamp, schemaVersion: version)
                }
                if !written, disk.stamp != memory.stamp { memory.absorb(disk) }
                return outcome
            }
        }
    }
}
