import Synchronization

/// The keys that `Key(…, sync: true)` marked for device sync in this process, suite file by
/// suite file (every ``SuiteStore`` of one file shares them, as it shares the file's state).
enum SyncMarks {
    private static let table = Mutex<[String: Set<String>]>([:])

    static func mark(_ name: String, path: String) {
        _ = table.withLock { $0[path, default: []].insert(name) }
    }

    static func marked(path: String) -> Set<String> {
        table.withLock { $0[path] ?? [] }
    }
}

extension SuiteStore {
    /// The names of this suite's keys that a ``Key`` declared with `sync: true` in this process:
    /// the keys device sync (RizqSync) carries to the user's other devices when the suite's sync
    /// is set to the marked keys. A key counts once its `Key` value has been created.
    public var keysMarkedForSync: Set<String> {
        SyncMarks.marked(path: location.path)
    }

    /// Marks `name` for device sync (what `Key(…, sync: true)` does).
    func markForSync(_ name: String) {
        SyncMarks.mark(name, path: location.path)
    }
}
