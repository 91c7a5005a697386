import Foundation
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// Apple's names and behaviour: the getters, the notification with its keys and four reasons,
/// the limits.
final class UbiquitousKeyValueStoreTests: XCTestCase {
    /// The notifications a store posts, collected.
    private final class Notifications: @unchecked Sendable {
        private let lock = NSCondition()
        private var received: [(keys: [String], reason: Int, reasonAsNumber: NSNumber?)] = []
        private var token: NSObjectProtocol?

        init(_ store: UbiquitousKeyValueStore) {
            token = NotificationCenter.default.addObserver(forName: UbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil) {
                [weak self] note in
                let keys = note.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
                let reason = note.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? Int ?? -1
                let number = note.userInfo?[UbiquitousKeyValueStore.changeReasonKey] as? NSNumber
                self?.add((keys, reason, number))
            }
        }

        deinit { token.map(NotificationCenter.default.removeObserver) }

        private func add(_ item: (keys: [String], reason: Int, reasonAsNumber: NSNumber?)) {
            lock.lock()
            received.append(item)
            lock.broadcast()
            lock.unlock()
        }

        /// The keys of the first notification with `reason` (and `keys`, when given).
        func wait(reason: Int, keys: [String]? = nil, timeout: TimeInterval = 30) -> [String]? {
            let deadline = Date().addingTimeInterval(timeout)
            lock.lock()
            defer { lock.unlock() }
            while true {
                if let found = received.first(where: { $0.reason == reason && (keys == nil || $0.keys == keys) }) {
                    XCTAssertEqual(found.reasonAsNumber?.intValue, reason, "the reason reads as an NSNumber too")
                    return found.keys
                }
                if !lock.wait(until: deadline) { return nil }
            }
        }
    }

    func testApplesReasonNumbersAndKeys() {
        XCTAssertEqual(NSUbiquitousKeyValueStoreServerChange, 0)
        XCTAssertEqual(NSUbiquitousKeyValueStoreInitialSyncChange, 1)
        XCTAssertEqual(NSUbiquitousKeyValueStoreQuotaViolationChange, 2)
        XCTAssertEqual(NSUbiquitousKeyValueStoreAccountChange, 3)
        XCTAssertEqual(NSUbiquitousKeyValueStoreChangeReasonKey, "NSUbiquitousKeyValueStoreChangeReasonKey")
        XCTAssertEqual(NSUbiquitousKeyValueStoreChangedKeysKey, "NSUbiquitousKeyValueStoreChangedKeysKey")
        XCTAssertEqual(NSUbiquitousKeyValueStore.didChangeExternallyNotification.rawValue, "NSUbiquitousKeyValueStoreDidChangeExternallyNotification")
    }

    func testTheGettersAndSettersBehaveAsApplesDo() throws {
        let scratch = TemporaryFolder()
        let a = try TestDevice("a", in: scratch, folder: scratch.sub("shared"), keys: [], first: true)
        let store = UbiquitousKeyValueStore(sync: a.sync)
        store.set("dark", forKey: "theme")
        store.set(Int64(42), forKey: "count")
        store.set(1.5, forKey: "ratio")
        store.set(true, forKey: "flag")
        store.set(Data([0, 1, 255]), forKey: "blob")
        store.set(["a", 1] as [Any], forKey: "list")
        store.set(["k": "v"] as [String: Any], forKey: "map")
        XCTAssertEqual(store.string(forKey: "theme"), "dark")
        XCTAssertEqual(store.longLong(forKey: "count"), 42)
        XCTAssertEqual(store.double(forKey: "ratio"), 1.5)
        XCTAssertEqual(store.double(forKey: "count"), 42)
        XCTAssertTrue(store.bool(forKey: "flag"))
        XCTAssertEqual(store.data(forKey: "blob"), Data([0, 1, 255]))
        XCTAssertEqual(store.array(forKey: "list")?.count, 2)
        XCTAssertEqual(store.dictionary(forKey: "map")?["k"] as? String, "v")
        XCTAssertNil(store.string(forKey: "missing"))
        XCTAssertEqual(store.longLong(forKey: "missing"), 0)
        XCTAssertFalse(store.bool(forKey: "missing"))
        XCTAssertEqual(Set(store.dictionaryRepresentation.keys), ["theme", "count", "ratio", "flag", "blob", "list", "map"])
        a.store.set("local", forKey: "windowFrame")
        XCTAssertNil(store.dictionaryRepresentation["windowFrame"], "a key not set through the store is not one of its keys")
        XCTAssertTrue(store.synchronize())
        store.removeObject(forKey: "theme")
        XCTAssertNil(store.object(forKey: "theme"))
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(try a.replica()?.entries["count"]?.value, 42, "every key set through the store is synced")
        XCTAssertEqual(try a.replica()?.entries["theme"]?.isTombstone, true)
    }

    func testAStoreThatIsNotSyncedSaysSo() throws {
        let scratch = TemporaryFolder()
        let suite = try SuiteStore(suite: "kvs", appID: "com.example.notes", root: scratch.sub("root"))
        let store = UbiquitousKeyValueStore(localOnly: suite)
        store.set("v", forKey: "k")
        XCTAssertEqual(store.string(forKey: "k"), "v")
        XCTAssertFalse(store.synchronize(), "as on a device signed out of iCloud")
    }

    func testMergesArePostedWithTheInitialSyncThenTheServerChangeReason() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        let store = UbiquitousKeyValueStore(sync: b.sync)
        let notifications = Notifications(store)
        try a.sync.set("dark", forKey: "theme")
        try a.sync.syncNow()
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreInitialSyncChange), ["theme"])
        try a.sync.set(15, forKey: "fontSize")
        try a.sync.syncNow()
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreServerChange), ["fontSize"])
        XCTAssertEqual(store.longLong(forKey: "fontSize"), 15)
    }

    func testApplesLimitsRefuseThe1025thKeyWithTheQuotaReason() throws {
        let scratch = TemporaryFolder()
        let a = try TestDevice("a", in: scratch, folder: scratch.sub("shared"), keys: [], first: true, limits: .apple)
        let store = UbiquitousKeyValueStore(sync: a.sync)
        let notifications = Notifications(store)
        for index in 0..<1024 { try store.put(.int(index), forKey: "key-\(index)") }
        XCTAssertThrowsError(try store.put(1024, forKey: "key-1024")) { error in
            XCTAssertEqual(error as? SyncError, .quotaExceeded(key: "key-1024", limit: "1024 keys"))
        }
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreQuotaViolationChange), ["key-1024"])
        XCTAssertNil(store.object(forKey: "key-1024"), "nothing was written")
        store.set(Int64(1), forKey: "key-1025")  // Apple's setter: silent, and not written
        XCTAssertNil(store.object(forKey: "key-1025"))
        store.set(Int64(7), forKey: "key-0")  // changing one of the 1,024 is fine
        XCTAssertEqual(store.longLong(forKey: "key-0"), 7)
        XCTAssertThrowsError(try store.put(.data(Data(count: 1_048_577)), forKey: "key-1")) { error in
            XCTAssertEqual(error as? SyncError, .quotaExceeded(key: "key-1", limit: "1048576 bytes for one value"))
        }
        try a.sync.syncNow()
        XCTAssertEqual(try a.replica()?.entries.count, 1024)
    }

    func testTheFourReasonsTheEventStreamAndTheStatus() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder, limits: .apple)
        let store = UbiquitousKeyValueStore(sync: b.sync)
        let notifications = Notifications(store)
        let events = EventLog(store.events)
        XCTAssertEqual(store.status, .initialSync)

        // Initial sync (1): a write made before the first merge, then the first merge.
        store.set("before", forKey: "lastPage")
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreInitialSyncChange, keys: ["lastPage"]), ["lastPage"])
        XCTAssertTrue(store.synchronize())
        XCTAssertNil(try b.replica(), "nothing is published before the first merge")
        try a.sync.set("dark", forKey: "theme")
        try a.sync.syncNow()
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreInitialSyncChange, keys: ["theme"]), ["theme"])
        XCTAssertNotNil(events.wait { $0 == .merged(keys: ["theme"], reason: .initialSyncChange) })
        XCTAssertNotNil(events.wait { if case .statusChanged(.upToDate) = $0 { return true } else { return false } })
        XCTAssertNotNil(events.wait { if case .published(let keys) = $0 { return keys.contains("lastPage") } else { return false } })
        XCTAssertEqual(store.status.withoutTime, .upToDate(lastMerge: nil))
        XCTAssertEqual(try b.replica()?.entries["lastPage"]?.value, "before", "published once the first merge was made")

        // Server change (0): another device's later change.
        try a.sync.set(15, forKey: "fontSize")
        try a.sync.syncNow()
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["fontSize"]), ["fontSize"])
        XCTAssertNotNil(events.wait { $0 == .merged(keys: ["fontSize"], reason: .serverChange) })
        XCTAssertEqual(store.longLong(forKey: "fontSize"), 15)

        // Quota violation (2): a value over Apple's 1 MB, not written.
        XCTAssertThrowsError(try store.put(.data(Data(count: 1_048_577)), forKey: "tags"))
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreQuotaViolationChange, keys: ["tags"]), ["tags"])
        XCTAssertNotNil(events.wait { if case .quotaExceeded("tags", _) = $0 { return true } else { return false } })
        XCTAssertNil(store.object(forKey: "tags"))

        // A file in the folder that is no replica this version reads: reported once, left alone.
        let junk = folder + "/replica-junk.json"
        try Data("not a replica".utf8).write(to: URL(fileURLWithPath: junk))
        XCTAssertTrue(store.synchronize())
        XCTAssertTrue(store.synchronize())
        XCTAssertNotNil(events.wait { if case .unreadableReplica(junk, _) = $0 { return true } else { return false } })
        XCTAssertEqual(events.all.filter { if case .unreadableReplica = $0 { return true } else { return false } }.count, 1, "reported once")
        XCTAssertEqual(try String(contentsOfFile: junk, encoding: .utf8), "not a replica")

        // Account change (3): the suite pointed at another folder, whose device changed the theme later.
        let second = scratch.sub("second")
        let other = try TestDevice("x", in: scratch, folder: second, first: true)
        try other.sync.set("elsewhere", forKey: "theme")
        try other.sync.syncNow()
        try b.store.enableDeviceSync(
            DeviceSyncConfiguration(folder: second, keys: ["theme", "fontSize", "lastPage", "tags"], engineCheck: .none), replicaID: "device-b")
        XCTAssertEqual(store.status, .initialSync)
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(notifications.wait(reason: NSUbiquitousKeyValueStoreAccountChange, keys: ["theme"]), ["theme"])
        XCTAssertEqual(store.string(forKey: "theme"), "elsewhere")

        // The folder gone: the status says so, synchronize() says false, and the values stay.
        try FileManager.default.removeItem(atPath: second)
        XCTAssertEqual(store.status, .folderMissing(path: second))
        XCTAssertFalse(store.synchronize())
        XCTAssertNotNil(events.wait { $0 == .statusChanged(.folderMissing(path: second)) })
        XCTAssertEqual(store.string(forKey: "theme"), "elsewhere")
    }
}
