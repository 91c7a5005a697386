import Foundation
import RizqJSON
import RizqPrefs

/// What one device's replica file holds: the synced keys of one suite, each with its change
/// stamp, and tombstones for deleted keys.
///
/// ```json
/// {
///   "app": "com.example.notes",
///   "entries": {
///     "fontSize": {"stamp": "1764150000123.0@3f9c…", "value": 14},
///     "theme": {"deleted": true, "stamp": "1764150000456.2@77b0…"}
///   },
///   "clocks": {"77b0…": 86399120},
///   "format": "rizq-prefs-replica-1",
///   "newest": "1764150000456.2@77b0…",
///   "replica": "3f9c…",
///   "suite": "com.example.notes"
/// }
/// ```
///
/// Values are written as suite files write them (tagged `$date` and `$data`), so that exact
/// types survive the trip. `newest` is the latest stamp inside, for people and for
/// ``SyncEvent/staleReplica(id:newest:)``. `clocks` (optional) says, for each device whose
/// stamps this device found ahead of its own clock by more than
/// ``DeviceSync/clockWarningOffset``, by how many milliseconds (``ClockSkew``). Each value sits
/// two objects deeper than in a suite file (`entries`, then its entry): the reader does not count
/// those two levels (``envelopeDepth``), so every value a suite holds reads back.
struct ReplicaDocument: Sendable, Equatable {
    static let format = "rizq-prefs-replica-1"
    /// The levels around each value that a suite file does not have (`entries`, its entry).
    static let envelopeDepth = 2

    /// The device that wrote it.
    var replica: String
    /// The app whose suite it is; `nil` for an app-group suite.
    var app: String?
    /// The suite's name.
    var suite: String
    var entries: [String: SyncedEntry]
    /// How far ahead of the writer's clock it found other devices' stamps (milliseconds), for
    /// those further ahead than ``DeviceSync/clockWarningOffset``.
    var clocks: [String: Int64] = [:]

    /// The latest stamp of any entry.
    var newest: ChangeStamp? { entries.values.lazy.map(\.stamp).max() }

    init(replica: String, app: String?, suite: String, entries: [String: SyncedEntry]) {
        self.replica = replica
        self.app = app
        self.suite = suite
        self.entries = entries
    }

    /// The file's bytes: pretty JSON, keys sorted, one entry per line group.
    func encoded() throws(SyncError) -> [UInt8] {
        var document: [String: PrefValue] = [
            "format": .string(Self.format),
            "replica": .string(replica),
            "suite": .string(suite),
            "entries": .dictionary(Self.encode(entries)),
        ]
        if let app { document["app"] = .string(app) }
        if let newest { document["newest"] = .string(newest.description) }
        if !clocks.isEmpty { document["clocks"] = .dictionary(clocks.mapValues { .int(Int($0)) }) }
        do {
            return try JSONWriter.bytes(.dictionary(document))
        } catch {
            throw .invalidConfiguration("a synced value cannot be written as JSON (\(error))")
        }
    }

    /// Reads a replica file's bytes; `path` is for messages.
    init(parsing bytes: [UInt8], path: String) throws(SyncError) {
        let root: PrefValue
        do {
            root = try JSONReader.parse(bytes, envelope: Self.envelopeDepth)
        } catch {
            throw .unreadableReplica(path: path, reason: "it is not valid JSON (\(error))")
        }
        guard case .dictionary(let document) = root else {
            throw .unreadableReplica(path: path, reason: "its top level is not a JSON object")
        }
        guard document["format"] == .string(Self.format) else {
            throw .unreadableReplica(path: path, reason: "it is not a replica of this version (\"format\" is not \"\(Self.format)\")")
        }
        guard case .string(let replica)? = document["replica"], ReplicaIdentity.isValid(replica),
            case .string(let suite)? = document["suite"]
        else {
            throw .unreadableReplica(path: path, reason: "it names no valid replica id and suite")
        }
        var app: String?
        if case .string(let named)? = document["app"] { app = named }
        guard case .dictionary(let raw)? = document["entries"] else {
            throw .unreadableReplica(path: path, reason: "it has no \"entries\" object")
        }
        self.init(replica: replica, app: app, suite: suite, entries: try Self.decode(raw, path: path))
        if case .dictionary(let members)? = document["clocks"] {
            for (device, value) in members where ReplicaIdentity.isValid(device) {
                if case .int(let milliseconds) = value { clocks[device] = Int64(milliseconds) }
            }
        }
    }

    /// Entries as JSON members: `{"stamp": "…", "value": …}` or `{"deleted": true, "stamp": "…"}`.
    static func encode(_ entries: [String: SyncedEntry]) -> [String: PrefValue] {
        var members: [String: PrefValue] = [:]
        members.reserveCapacity(entries.count)
        for (key, entry) in entries {
            if let value = entry.value {
                members[key] = .dictionary(["stamp": .string(entry.stamp.description), "value": value])
            } else {
                members[key] = .dictionary(["stamp": .string(entry.stamp.description), "deleted": .bool(true)])
            }
        }
        return members
    }

    /// The entries of an `entries` object; an entry that is not one of the two forms makes the
    /// whole file unreadable (a partial merge of a file we do not understand would be a guess).
    static func decode(_ members: [String: PrefValue], path: String) throws(SyncError) -> [String: SyncedEntry] {
        var entries: [String: SyncedEntry] = [:]
        entries.reserveCapacity(members.count)
        for (key, member) in members {
            guard case .dictionary(let fields) = member, case .string(let text)? = fields["stamp"],
                let stamp = ChangeStamp(parsing: text), ReplicaIdentity.isValid(stamp.origin)
            else {
                throw .unreadableReplica(path: path, reason: "the entry of key '\(key)' has no valid \"stamp\"")
            }
            if fields["deleted"] == .bool(true) {
                entries[key] = SyncedEntry(value: nil, stamp: stamp)
            } else if let value = fields["value"], value != .null {
                entries[key] = SyncedEntry(value: value, stamp: stamp)
            } else {
                throw .unreadableReplica(path: path, reason: "the entry of key '\(key)' has neither a \"value\" nor \"deleted\": true")
            }
        }
        return entries
    }
}
