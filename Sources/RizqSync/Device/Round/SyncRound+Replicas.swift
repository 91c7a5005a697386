import RizqCore

extension SyncRound {
    /// Step 1: the other devices' replicas in the folder (conflict copies too), read once —
    /// unchanged files come from the cache — and what each may give this round; a file that
    /// cannot be read is skipped and reported, and so is each value that cannot be taken. Then
    /// how far the other devices' clocks are from this one (``measureClocks(_:)``).
    mutating func readReplicas() {
        var reads: [ReplicaFolder.Read] = []
        if folderExists {
            var cache = sync.local.withLock { local -> ReplicaCache in
                defer { local.cache = ReplicaCache() }
                return local.cache
            }
            let (all, problems) = folder.readAll(cache: &cache, own: sync.replicaID)
            sync.local.withLock { $0.cache = cache }
            for problem in problems {
                skip(SkippedInput(path: problem.path, device: nil, key: nil, reason: problem.reason))
            }
            let paths = sync.paths
            reads = all.filter { read in
                read.document.suite == paths.suiteName && (read.document.app == nil || paths.appID == nil || read.document.app == paths.appID)
            }
        }
        // What each may give: synced keys, values the suite takes, stamps the clock takes.
        for read in reads { offers.append((read: read, entries: offer(read))) }
        measureClocks(reads)
        skews = DeviceSync.signedSkews(of: state)
    }

    /// The entries of `read` this round may take: synced keys whose values the suite can hold
    /// and the credential rule lets through (``ReplicaCache/Checked``), with stamps this
    /// device's clock takes. The others are reported (``SkippedInput``).
    private mutating func offer(_ read: ReplicaFolder.Read) -> [String: SyncedEntry] {
        var entries: [String: SyncedEntry] = [:]
        for (key, entry) in read.entries where keys.contains(key) {
            if let refusal = sync.clock.refusal(of: entry.stamp) {
                skip(SkippedInput(path: read.path, device: read.document.replica, key: key, reason: refusal.description))
                continue
            }
            entries[key] = entry
        }
        for (key, reason) in read.skipped.sorted(by: { $0.key < $1.key }) where keys.contains(key) {
            skip(SkippedInput(path: read.path, device: read.document.replica, key: key, reason: reason))
        }
        return entries
    }
}
