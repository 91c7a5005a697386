#if canImport(Glibc)
import Glibc
#endif

extension SuiteFile {
    /// What ``load(_:)`` and ``loadRepairing()`` found.
    struct Loaded {
        /// The file's top-level object; empty when there is no file.
        var entries = SuiteTable()
        /// The version read; `nil` when there is no file.
        var stamp: FileStamp?
        /// The bytes `entries` were parsed from, exactly; `nil` when there is no file.
        var bytes: [UInt8]?
        /// The schema version the file records (``SchemaVersionMember``); `nil` when it
        /// records none, or there is no file.
        var schemaVersion: Int?
        /// Where a damaged file was moved aside, and why it was judged damaged.
        var movedAside: (path: String, reason: String)?
        /// When its keys were last changed (no file: never).
        var times = ChangeTimes(floor: 0, keys: [:])

        /// The entries and their version, without the bytes (a temporary: the bytes are freed
        /// at once, not held through the caller's work).
        var parsed: (entries: SuiteTable, stamp: FileStamp?, schemaVersion: Int?, times: ChangeTimes) { (entries, stamp, schemaVersion, times) }
    }

    /// Reads the file, which the caller holds the lock of; a damaged one is moved aside and
    /// reads as empty.
    func load(_ lock: borrowing Lock) throws(SuiteStoreError) -> Loaded {
        switch try read() {
        case .missing:
            return Loaded()
        case .entries(let entries, let stamp, let bytes, let version, let times):
            return Loaded(entries: entries, stamp: stamp, bytes: bytes, schemaVersion: version, times: times)
        case .damaged(let reason, let stamp):
            return try repair(reason, stamp, lock)
        }
    }

    /// Reads the file without its lock, taking the lock only to move a damaged file aside.
    func loadRepairing() throws(SuiteStoreError) -> Loaded {
        switch try read() {
        case .missing:
            return Loaded()
        case .entries(let entries, let stamp, let bytes, let version, let times):
            return Loaded(entries: entries, stamp: stamp, bytes: bytes, schemaVersion: version, times: times)
        case .damaged(let reason, let stamp):
            return try withLock { lock throws(SuiteStoreError) in try repair(reason, stamp, lock) }
        }
    }

    /// Moves the damaged file aside, unless it is replaced meanwhile by a sound one. Never
    /// writes over a damaged version, and gives up rather than loop.
    private func repair(_ firstReason: String, _ firstStamp: FileStamp, _ lock: borrowing Lock) throws(SuiteStoreError) -> Loaded {
        var reason = firstReason
        var stamp = firstStamp
        for _ in 0..<3 {
            // A writer that does not replace atomically (an editor saving in place) may be
            // half-way through: give it a moment before judging the file.
            usleep(100_000)
            if let moved = try quarantine(expecting: stamp, lock) {
                SuiteBackend.logger.warning(
                    "suite file \(location.path) is damaged (\(reason)); moved it aside to \(moved) and started the suite empty; restore it by hand if you need its contents",
                    metadata: ["suite": "\(location.suiteName)"])
                return Loaded(movedAside: (moved, reason))
            }
            switch try read() {
            case .missing: return Loaded()
            case .entries(let entries, let newStamp, let bytes, let version, let times):
                return Loaded(entries: entries, stamp: newStamp, bytes: bytes, schemaVersion: version, times: times)
            case .damaged(let newReason, let newStamp): (reason, stamp) = (newReason, newStamp)
            }
        }
        throw .unreadable(path: location.path, reason: "it is damaged (\(reason)) and keeps changing")
    }
}
