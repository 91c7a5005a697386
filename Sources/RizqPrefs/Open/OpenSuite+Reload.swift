import Dispatch
extension OpenSuite {
    /// Picks up what other processes wrote, and the layers as they are, now, without waiting
    /// for inotify.
    func refresh() {
        queue.sync {
            reloadIfChanged()
            if openError == nil { readLayers() }
        }
    }

    /// A read's check while the suite is degraded (inotify cannot follow its file): when the
    /// file is not the version the memory holds, it is read now, before the read goes on — on
    /// the suite's queue, or in place when the read is made on it.
    func refreshIfStale() {
        guard openError == nil else { return }
        // `nil` for no file: one removed since reads as an empty suite.
        let current = try? file.stamp()
        guard current != memory.stamp else { return }
        reloadNow()
    }

    private func reloadNow() {
        if DispatchQueue.getSpecific(key: Self.queueKey) == true {
            reloadIfChanged()
        } else {
            queue.sync { reloadIfChanged() }
        }
    }

    /// Called on the watcher thread when the suite file may have changed: one reload scheduled.
    func fileChanged() {
        guard !reloadScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            // Cleared before the file is looked at: an event from now on schedules another.
            reloadScheduled.store(false, ordering: .releasing)
            reloadIfChanged()
        }
    }

    /// The reload path, on `queue` (so never at the same time as this process's own write), in
    /// one direction: the file's stamp; if it is not the version the memory holds, the file
    /// read (a damaged one moved aside); the memory absorbs it (``SuiteMemory/absorb(_:)``).
    func reloadIfChanged() {
        guard openError == nil else { return }
        do {
            guard try file.stamp() != memory.stamp else { return }
            var other = try file.loadRepairing()
            if !memory.absorb(other) {
                other = try loadWithChangeLog()
                memory.absorb(other)
            }
            Self.logger.debug("read another process's write", metadata: [
                "suite": "\(location.suiteName)", "path": "\(location.path)", "keys": "\(other.entries.count)",
            ])
        } catch {
            Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
        }
    }

    /// The file with its change times, for a reload that has changes to rebase on it: under the
    /// shared lock, so that no writer swaps in another version between the file and the change
    /// log. Where the lock cannot be had (a read-only folder without a lock file; a holder that
    /// never lets go), the times are those of the file's modification time, the rule without a
    /// record.
    private func loadWithChangeLog() throws(SuiteStoreError) -> SuiteFile.Loaded {
        let read: Result<SuiteFile.Contents, SuiteStoreError>
        do {
            read = .success(try file.withLock(shared: true) { lock throws(SuiteStoreError) -> SuiteFile.Contents in
                let contents = try file.read()
                guard case .entries(let entries, let stamp, let bytes, let version, nil) = contents else { return contents }
                return .entries(entries, stamp, bytes: bytes, schemaVersion: version, times: file.changeTimes(of: stamp, lock))
            })
        } catch {
            read = .failure(error)
        }
        switch read {
        case .success(.damaged):
            return try file.loadRepairing()
        case .success(let contents):
            return SuiteFile.Loaded(contents)
        case .failure(let error):
            OnceWarnings.warn(
                "reload-lock " + location.path,
                "cannot take the lock of suite file \(location.path) to read when its keys were last changed (\(error)); another process's changes are merged with this process's by the file's modification time until it can",
                suite: location.suiteName)
            var loaded = try file.loadRepairing()
            if loaded.times == nil, let stamp = loaded.stamp { loaded.times = .unrecorded(modifiedAt: stamp.modifiedTime) }
            return loaded
        }
    }
}
