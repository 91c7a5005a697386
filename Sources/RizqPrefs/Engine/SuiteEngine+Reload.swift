extension SuiteEngine {
    /// Picks up what other processes wrote, now, without waiting for inotify.
    func refresh() {
        queue.sync { reloadIfChanged() }
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
    /// one direction: the file's stamp; if it is not the version the replica holds, the file
    /// read (a damaged one moved aside); the replica absorbs it (``SuiteReplica/absorb(_:)``).
    func reloadIfChanged() {
        guard openError == nil else { return }
        do {
            guard try file.stamp() != replica.stamp else { return }
            let other = try file.loadRepairing()
            replica.absorb(other)
            Self.logger.debug("read another process's write", metadata: [
                "suite": "\(location.suiteName)", "path": "\(location.path)", "keys": "\(other.entries.count)",
            ])
        } catch {
            Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
        }
    }
}
