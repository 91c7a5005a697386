extension OpenSuite {
    /// Writes pending changes now; returns when they are durable.
    func flush() throws(SuiteStoreError) {
        try onQueue { () throws(SuiteStoreError) in try writePending() }
    }

    /// Runs on `queue`: writes what is pending, under the file lock.
    func writePending() throws(SuiteStoreError) {
        // Cleared before the pending changes are looked at: a change made from now on schedules
        // a write of its own.
        writeScheduled.store(false, ordering: .releasing)
        guard memory.hasPendingChanges else { return }
        if let openError { throw openError }
        try file.withLock { lock throws(SuiteStoreError) in
            removeStaleTemporariesOnce(lock)
            try write(&lock)
        }
    }

    /// The write path, under the file lock, on `queue`, in one direction:
    ///
    /// 1. the file's stamp; the file read only if it is not the version the memory holds
    ///    (another process wrote, or the file was damaged and is moved aside now);
    /// 2. the memory hands over its pending changes, over that version (``SuiteMemory/beginWrite(over:)``);
    /// 3. their bytes (``SuiteWrite/encode()``);
    /// 4. the file replaced by them, if it is still the version they were made over, with the
    ///    times of the changes recorded in the suite's ``ChangeLog`` first;
    /// 5. the memory takes the write back, done or failed (``SuiteMemory/finishWrite(_:encoded:outcome:)``).
    ///
    /// When the lock file was taken from under us, or a program that does not lock replaced the
    /// file meanwhile, nothing was written: the changes are pending again, and the path runs
    /// again over the file as it is then.
    func write(_ lock: inout SuiteFileLock) throws(SuiteStoreError) {
        // Each round needs another program to replace the file or the lock file during it; a
        // bound only against one that does so without end.
        for _ in 0..<1_000 {
            let current = try file.stamp()
            let disk: SuiteMemory.DiskVersion = current == memory.stamp ? .unchanged(current) : .changed(try file.load(lock))
            guard var write = memory.beginWrite(over: disk) else { return }
            var encoded: EncodedSuite?
            let outcome: Result<SuiteFile.Replacement, SuiteStoreError>
            do throws(SuiteStoreError) {
                let bytes = try write.encode()
                encoded = bytes
                let changes = ChangeLog.Changes(keys: write.changes.changes, floor: write.changes.clear?.time, now: WallClock.now())
                outcome = .success(try file.replace(bytes: bytes.bytes, changes: changes, over: write.over, lock))
            } catch {
                outcome = .failure(error)
            }
            let size = encoded?.bytes.count ?? 0
            memory.finishWrite(write, encoded: encoded, outcome: outcome)
            switch try outcome.get() {
            case .replaced:
                logWrite(bytes: size, over: disk)
                return
            case .lockLost:
                try file.retake(&lock)
            case .fileChanged:
                continue
            }
        }
        throw .writeFailed(path: location.path, reason: "the file keeps being replaced by another program while this process writes it; stop that program and flush again")
    }

    /// Once per openSuite, under the lock, before its first write of any kind (not at open, which
    /// only reads): the temporaries of writers killed mid-write go.
    func removeStaleTemporariesOnce(_ lock: borrowing SuiteFileLock) {
        guard !temporariesRemoved.exchange(true, ordering: .relaxed) else { return }
        file.removeStaleTemporaries()
    }

    private func logWrite(bytes: Int, over disk: SuiteMemory.DiskVersion) {
        let how: String
        if case .changed = disk { how = "merged with another process's write" } else { how = "this process's changes" }
        Self.logger.debug("wrote suite", metadata: [
            "suite": "\(location.suiteName)", "path": "\(location.path)", "bytes": "\(bytes)", "encoding": "\(how)",
        ])
    }
}
