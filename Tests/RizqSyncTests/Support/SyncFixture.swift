import Foundation
import RizqPrefs
@testable import RizqSync
import XCTest

/// A temporary folder, removed when the fixture goes.
final class TemporaryFolder: Sendable {
    let path: String

    init(_ label: String = "rizq-sync-test") {
        // One spelling, as device sync keeps a folder (no `//`): paths compare as written.
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(label).XXXXXX")
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        path = made.map { String(cString: $0) } ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func sub(_ name: String) -> String {
        let folder = path + "/" + name
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// One simulated device: a suites root of its own, a replica id, and the suite synced through
/// `folder` (a folder both devices of a test share, as a perfect sync engine would).
struct TestDevice {
    static let app = "com.example.notes"

    let root: String
    let store: SuiteStore
    let sync: DeviceSync

    init(
        _ name: String, in scratch: TemporaryFolder, folder: String, keys: [String] = ["theme", "fontSize", "lastPage", "tags"],
        first: Bool = false, limits: SyncLimits = .none, engineCheck: SyncEngineCheck = .none, existing: [String: PrefValue] = [:],
        includesMarked: Bool = true
    ) throws {
        root = scratch.sub("root-" + name)
        store = try SuiteStore(suite: Self.app, appID: Self.app, root: root)
        for (key, value) in existing { try store.put(value, forKey: key) }
        try store.flush()
        var configuration = DeviceSyncConfiguration(folder: folder, keys: keys, includesMarkedKeys: includesMarked, isFirstDevice: first, limits: limits)
        configuration.engineCheck = engineCheck
        sync = try store.enableDeviceSync(configuration, replicaID: "device-" + name)
    }

    /// The suite's value of `key` as stored (no registered default).
    func value(_ key: String) -> PrefValue? { store.entries[key] }

    /// What this device's replica file holds.
    func replica() throws -> ReplicaDocument? {
        let path = try sync.replicaPath
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try ReplicaDocument(parsing: Array(data), path: path)
    }
}

/// Collects a sync's events as they come, for a test to wait on.
final class EventLog: @unchecked Sendable {
    private let lock = NSCondition()
    private var events: [SyncEvent] = []
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<SyncEvent>) {
        task = Task.detached { [weak self] in
            for await event in stream { self?.append(event) }
        }
    }

    deinit { task?.cancel() }

    private func append(_ event: SyncEvent) {
        lock.lock()
        events.append(event)
        lock.broadcast()
        lock.unlock()
    }

    var all: [SyncEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    /// Waits until an event satisfies `matches`; the bound only stops a hung test.
    @discardableResult
    func wait(timeout: TimeInterval = 60, _ matches: (SyncEvent) -> Bool) -> SyncEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let found = events.first(where: matches) { return found }
            if !lock.wait(until: deadline) { return events.first(where: matches) }
        }
    }
}
