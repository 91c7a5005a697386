import Foundation
import RizqJSON
import RizqPrefs

/// What one device keeps about one synced suite, in a private file of its own (never in the
/// synced folder): the configuration, whether the initial sync is done, and every synced key's
/// entry as this device knows it — its own changes and those merged from other devices, each
/// with the stamp it was made with.
///
/// The published replica is a copy of ``entries``; this file is its source, written first, so
/// that the replica is only ever made from a state that was saved.
struct SyncState: Sendable, Equatable {
    static let format = "rizq-prefs-sync-state-1"

    var configuration: DeviceSyncConfiguration
    /// Keys that apps marked `sync: true` (``RizqPrefs/SuiteStore/keysMarkedForSync``), kept so
    /// that a process which declares no `Key` (the CLI) syncs them too.
    var markedKeys: Set<String> = []
    /// Whether this device has merged another device's replica (or is the first device): only
    /// then does it publish.
    var initialSyncDone = false
    /// The folder changed (``DeviceSync`` re-pointed): the first merge from the new folder is
    /// reported as an account change.
    var accountChangePending = false
    /// Every synced key this device knows of.
    var entries: [String: SyncedEntry] = [:]
    /// The keys that have joined sync on this device, with or without an entry: a value that
    /// appears later under one of them is a change made here, while a key not yet joined brings
    /// the value it held before as a baseline (``DeviceSync``'s initial-sync rule).
    var knownKeys: Set<String> = []
    /// The newest stamp seen in each other device's replica.
    var devices: [String: ChangeStamp] = [:]
    /// Devices forgotten (`forget-device`), with their newest stamp then: their replica is
    /// ignored unless it brings something newer.
    var forgotten: [String: ChangeStamp] = [:]
    /// When a round last read the folder (milliseconds since 1970).
    var lastMerge: Int64?
    /// For each other device (stamp origin), the newest of its stamps seen and how far ahead of
    /// this device's clock it was when first seen (``ClockSkew``).
    var clocks: [String: ClockReading] = [:]
    /// How far ahead of their clocks other devices found this device's stamps, as their replicas
    /// say (only those past ``DeviceSync/clockWarningOffset``).
    var reports: [String: Int64] = [:]
    /// Keys whose last merge was decided by a clock that is off, with the explanation.
    var clockLosses: [String: String] = [:]

    /// A device's newest stamp, and how far ahead of this device's clock it was when first seen.
    struct ClockReading: Sendable, Equatable {
        var stamp: ChangeStamp
        var ahead: Int64
    }

    init(configuration: DeviceSyncConfiguration) {
        self.configuration = configuration
    }

    /// The keys synced: the listed ones, and the marked ones when marked keys are synced.
    var syncedKeys: Set<String> {
        configuration.includesMarkedKeys ? markedKeys.union(configuration.keys) : Set(configuration.keys)
    }

    /// Whether this device may publish its replica.
    var publishes: Bool { initialSyncDone || configuration.isFirstDevice }

    // MARK: The file's JSON

    func encoded() throws(SyncError) -> [UInt8] {
        let configuration = self.configuration
        var settings: [String: PrefValue] = [
            "folder": .string(configuration.folder),
            "keys": .array(configuration.keys.map(PrefValue.string)),
            "includesMarkedKeys": .bool(configuration.includesMarkedKeys),
            "firstDevice": .bool(configuration.isFirstDevice),
            "tombstoneRetentionMilliseconds": .int(Int(configuration.retentionMilliseconds)),
        ]
        var limits: [String: PrefValue] = [:]
        if let value = configuration.limits.maximumKeys { limits["keys"] = .int(value) }
        if let value = configuration.limits.maximumTotalBytes { limits["totalBytes"] = .int(value) }
        if let value = configuration.limits.maximumValueBytes { limits["valueBytes"] = .int(value) }
        settings["limits"] = .dictionary(limits)
        switch configuration.engineCheck {
        case .syncthing(let home): settings["engine"] = .dictionary(["syncthingHome": .string(home)])
        case .folderMarker(let name): settings["engine"] = .dictionary(["marker": .string(name)])
        case .none: settings["engine"] = .dictionary([:])
        }
        var document: [String: PrefValue] = [
            "format": .string(Self.format),
            "configuration": .dictionary(settings),
            "markedKeys": .array(markedKeys.sorted().map(PrefValue.string)),
            "initialSyncDone": .bool(initialSyncDone),
            "accountChangePending": .bool(accountChangePending),
            "entries": .dictionary(ReplicaDocument.encode(entries)),
            "knownKeys": .array(knownKeys.sorted().map(PrefValue.string)),
            "devices": .dictionary(devices.mapValues { .string($0.description) }),
            "forgotten": .dictionary(forgotten.mapValues { .string($0.description) }),
        ]
        if let lastMerge { document["lastMerge"] = .int(Int(lastMerge)) }
        if !clocks.isEmpty {
            document["clocks"] = .dictionary(clocks.mapValues { .dictionary(["stamp": .string($0.stamp.description), "ahead": .int(Int($0.ahead))]) })
        }
        if !reports.isEmpty { document["reports"] = .dictionary(reports.mapValues { .int(Int($0)) }) }
        if !clockLosses.isEmpty { document["clockLosses"] = .dictionary(clockLosses.mapValues(PrefValue.string)) }
        do {
            return try JSONWriter.bytes(.dictionary(document))
        } catch {
            throw .invalidConfiguration("the sync state cannot be written as JSON (\(error))")
        }
    }

    init(parsing bytes: [UInt8], path: String) throws(SyncError) {
        let root: PrefValue
        do {
            // Values sit as deep as in a replica: the same two levels are not counted.
            root = try JSONReader.parse(bytes, envelope: ReplicaDocument.envelopeDepth)
        } catch {
            throw .unreadableReplica(path: path, reason: "the sync state is not valid JSON (\(error))")
        }
        guard case .dictionary(let document) = root, document["format"] == .string(Self.format),
            case .dictionary(let settings)? = document["configuration"], case .string(let folder)? = settings["folder"]
        else {
            throw .unreadableReplica(path: path, reason: "it is not a sync state of this version")
        }
        var configuration = DeviceSyncConfiguration(folder: folder)
        if case .array(let keys)? = settings["keys"] {
            configuration.keys = keys.compactMap { if case .string(let key) = $0 { return key } else { return nil } }
        }
        if case .bool(let flag)? = settings["includesMarkedKeys"] { configuration.includesMarkedKeys = flag }
        if case .bool(let flag)? = settings["firstDevice"] { configuration.isFirstDevice = flag }
        if case .int(let milliseconds)? = settings["tombstoneRetentionMilliseconds"] {
            configuration.tombstoneRetention = .milliseconds(milliseconds)
        }
        if case .dictionary(let limits)? = settings["limits"] {
            func number(_ name: String) -> Int? { if case .int(let value)? = limits[name] { return value } else { return nil } }
            configuration.limits = SyncLimits(maximumKeys: number("keys"), maximumTotalBytes: number("totalBytes"), maximumValueBytes: number("valueBytes"))
        }
        if case .dictionary(let engine)? = settings["engine"] {
            if case .string(let home)? = engine["syncthingHome"] {
                configuration.engineCheck = .syncthing(home: home)
            } else if case .string(let marker)? = engine["marker"] {
                configuration.engineCheck = .folderMarker(marker)
            } else {
                configuration.engineCheck = .none
            }
        }
        self.init(configuration: configuration)
        if case .array(let keys)? = document["markedKeys"] {
            markedKeys = Set(keys.compactMap { if case .string(let key) = $0 { return key } else { return nil } })
        }
        if case .bool(let flag)? = document["initialSyncDone"] { initialSyncDone = flag }
        if case .bool(let flag)? = document["accountChangePending"] { accountChangePending = flag }
        if case .dictionary(let raw)? = document["entries"] { entries = try ReplicaDocument.decode(raw, path: path) }
        if case .array(let keys)? = document["knownKeys"] {
            knownKeys = Set(keys.compactMap { if case .string(let key) = $0 { return key } else { return nil } })
        }
        knownKeys.formUnion(entries.keys)
        devices = Self.stamps(document["devices"])
        forgotten = Self.stamps(document["forgotten"])
        if case .int(let milliseconds)? = document["lastMerge"] { lastMerge = Int64(milliseconds) }
        if case .dictionary(let members)? = document["clocks"] {
            for (device, member) in members {
                guard case .dictionary(let fields) = member, case .string(let text)? = fields["stamp"], let stamp = ChangeStamp(parsing: text),
                    case .int(let ahead)? = fields["ahead"]
                else { continue }
                clocks[device] = ClockReading(stamp: stamp, ahead: Int64(ahead))
            }
        }
        if case .dictionary(let members)? = document["reports"] {
            for (device, member) in members { if case .int(let value) = member { reports[device] = Int64(value) } }
        }
        if case .dictionary(let members)? = document["clockLosses"] {
            for (key, member) in members { if case .string(let text) = member { clockLosses[key] = text } }
        }
    }

    private static func stamps(_ value: PrefValue?) -> [String: ChangeStamp] {
        guard case .dictionary(let members)? = value else { return [:] }
        return members.compactMapValues { if case .string(let text) = $0 { return ChangeStamp(parsing: text) } else { return nil } }
    }
}
