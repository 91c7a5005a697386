import RizqCore
import RizqJSON
import RizqPrefs

/// What a round's merge may take (``DeviceSync/mergeByteLimit``) and what the synced keys take
/// so far (measured only when a replica brings a change: until then every winner is taken).
struct MergeBudget {
    let limit: Int
    private(set) var total: Int?
    /// Where entries' sizes are kept between rounds (by key and stamp).
    private let sync: DeviceSync

    init(limit: Int, sync: DeviceSync) {
        self.limit = limit
        self.sync = sync
    }

    /// Measures what the synced keys take in the sync state (and this device's replica), and
    /// the suite's other keys in the suite.
    mutating func measure(_ state: SyncState, keys: Set<String>, live: [String: PrefValue]) {
        var total = 0
        for (key, entry) in state.entries where keys.contains(key) { total = total &+ entryBytes(key, entry) }
        sync.local.withLock { local in
            for (key, value) in live where !keys.contains(key) { total = total &+ local.sizes.bytes(of: value, forKey: key) }
        }
        self.total = total
    }

    /// Takes `theirs` in place of `mine` under `key` when the total stays within the limit
    /// (`nil`); otherwise takes nothing and returns why.
    mutating func take(_ theirs: SyncedEntry, over mine: SyncedEntry?, forKey key: String) -> String? {
        guard let total else { return nil }
        let bytes = entryBytes(key, theirs) - (mine.map { entryBytes(key, $0) } ?? 0)
        let after = total.addingReportingOverflow(bytes).overflow ? Int.max : total + bytes
        guard after <= limit else {
            return "with it the synced keys would take \(FileWords.size(Int64(after))) (with the suite's other keys), over the "
                + "\(FileWords.size(Int64(limit))) that the suite, its sync state and this device's replica may hold; "
                + "the device that published it should store less"
        }
        self.total = after
        return nil
    }

    /// About the bytes `entry` takes in the state and the replica under `key`: its value as
    /// JSON, its key and stamp, and the indentation of the pretty-printed file. Measured once per
    /// key and stamp.
    private func entryBytes(_ key: String, _ entry: SyncedEntry) -> Int {
        if let known = sync.local.withLock({ $0.entrySizes[key] }), known.stamp == entry.stamp { return known.bytes }
        var bytes = key.utf8.count + 96
        if let value = entry.value, let text = try? JSONWriter.bytes(value) {
            var lines = 0
            for byte in text where byte == 0x0A { lines &+= 1 }
            bytes = bytes &+ text.count &+ lines &* 8
        }
        sync.local.withLock { $0.entrySizes[key] = (entry.stamp, bytes) }
        return bytes
    }
}
