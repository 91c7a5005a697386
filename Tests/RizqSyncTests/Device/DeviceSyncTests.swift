import Foundation
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// Two or three devices sharing one folder (a perfect sync engine): what travels, with which
/// stamp, and what never does.
final class DeviceSyncTests: XCTestCase {
    func testAValueSetOnOneDeviceReachesTheOtherWithTheStampItWasMadeWith() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        try a.sync.set("dark", forKey: "theme")
        let published = try a.sync.syncNow()
        XCTAssertTrue(published.published)
        XCTAssertEqual(published.recorded, ["theme"])
        let stamp = try XCTUnwrap(try a.sync.entries["theme"]).stamp
        XCTAssertEqual(stamp.origin, "device-a")

        let merged = try b.sync.syncNow()
        XCTAssertEqual(merged.merged, ["theme"])
        XCTAssertTrue(merged.initialSyncCompleted)
        XCTAssertEqual(b.value("theme"), "dark")
        XCTAssertEqual(try b.sync.entries["theme"]?.stamp, stamp, "a pulled value keeps its stamp")
        XCTAssertEqual(try b.replica()?.entries["theme"]?.stamp, stamp, "and passes it on unchanged")

        // Another process of B (a second open of the same suite, as `rizq-prefs sync now` is)
        // sees the merged value as it is: nothing is recorded as a local change of B.
        let again = try b.sync.syncNow()
        XCTAssertEqual(again.recorded, [])
        XCTAssertEqual(again.merged, [])
        XCTAssertFalse(again.published)
    }

    func testChangesMadeThroughTheSuiteItselfAreRecordedAndPublished() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        a.store.set(14, forKey: "fontSize")
        a.store.set("not synced", forKey: "windowFrame")
        XCTAssertEqual(try a.sync.syncNow().recorded, ["fontSize"])
        try b.sync.syncNow()
        XCTAssertEqual(b.value("fontSize"), 14)
        XCTAssertNil(b.value("windowFrame"), "a key that is not synced never leaves its device")
        XCTAssertNil(try a.replica()?.entries["windowFrame"])
    }

    func testANewDevicePublishesNothingUntilItMergedAnotherAndNeverOverwritesTheirValues() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        // B was used before sync: its values are older than any change made elsewhere.
        let b = try TestDevice("b", in: scratch, folder: folder, existing: ["theme": "light", "fontSize": 12])
        try b.sync.set(7, forKey: "lastPage")  // written during the initial sync
        let lastPageStamp = try XCTUnwrap(try b.sync.syncNow().recorded.isEmpty ? nil : b.sync.entries["lastPage"]).stamp
        XCTAssertEqual(b.sync.status, .initialSync)
        XCTAssertNil(try b.replica(), "nothing is published before the first merge")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])

        let a = try TestDevice("a", in: scratch, folder: folder, first: true, existing: ["theme": "dark"])
        try a.sync.syncNow()
        let report = try b.sync.syncNow()
        XCTAssertTrue(report.initialSyncCompleted)
        XCTAssertTrue(report.published)
        XCTAssertEqual(b.value("theme"), "dark", "the other device's value wins over what B had before")
        XCTAssertEqual(b.value("fontSize"), 12, "a key only B had stays")
        XCTAssertEqual(try b.replica()?.entries["lastPage"]?.stamp, lastPageStamp, "a change made during the initial sync keeps its stamp")

        try a.sync.syncNow()
        XCTAssertEqual(a.value("theme"), "dark", "the new device did not overwrite the first one")
        XCTAssertEqual(a.value("fontSize"), 12)
        XCTAssertEqual(a.value("lastPage"), 7)
    }

    func testADeleteIsATombstoneAndTheKeyStaysDeleted() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        try a.sync.set(["x", "y"], forKey: "tags")
        try a.sync.syncNow()
        try b.sync.syncNow()
        XCTAssertEqual(b.value("tags"), ["x", "y"])

        try b.sync.set(nil, forKey: "tags")
        try b.sync.syncNow()
        let tombstone = try XCTUnwrap(try b.replica()?.entries["tags"])
        XCTAssertTrue(tombstone.isTombstone)
        for _ in 0..<3 {
            try a.sync.syncNow()
            try b.sync.syncNow()
        }
        XCTAssertNil(a.value("tags"), "the delete reached A")
        XCTAssertNil(b.value("tags"), "and A's older value did not bring it back")
        XCTAssertEqual(try a.replica()?.entries["tags"], tombstone)
    }

    func testAnEditMadeAfterSeeingAValueWinsOverADeviceWhoseClockIsAhead() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let b = try TestDevice("b", in: scratch, folder: folder)
        // A device ten minutes fast published a value.
        let fast = ChangeStamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 600_000, counter: 0, origin: "device-fast")
        let document = ReplicaDocument(replica: "device-fast", app: TestDevice.app, suite: TestDevice.app, entries: ["theme": SyncedEntry(value: "fast", stamp: fast)])
        try Data(document.encoded()).write(to: URL(fileURLWithPath: folder + "/replica-device-fast.json"))
        try b.sync.syncNow()
        XCTAssertEqual(b.value("theme"), "fast")

        try b.sync.set("mine", forKey: "theme")  // made after seeing "fast"
        try b.sync.syncNow()
        let mine = try XCTUnwrap(try b.sync.entries["theme"])
        XCTAssertEqual(mine.value, "mine")
        XCTAssertGreaterThan(mine.stamp, fast, "the later edit wins although B's clock is ten minutes behind")
        XCTAssertEqual(b.value("theme"), "mine")
    }

    func testARegisteredDefaultIsNeverPublishedButAValueSetToItIs() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, keys: [], first: true)
        let theme = Key("theme", default: "system", store: a.store, sync: true)
        XCTAssertTrue(theme.isSynced)
        XCTAssertTrue(a.store.keysMarkedForSync.contains("theme"))
        XCTAssertEqual(theme.value, "system")
        try a.sync.syncNow()
        XCTAssertNil(try a.replica()?.entries["theme"], "a default is never published")

        theme.value = "system"  // set by the user, to the default's value
        try a.sync.syncNow()
        XCTAssertEqual(try a.replica()?.entries["theme"]?.value, "system")
        XCTAssertTrue(try a.sync.syncedKeys.contains("theme"))
    }

    func testTheNewestChangeWinsEachKeyWhateverTheOrderOfRounds() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        let c = try TestDevice("c", in: scratch, folder: folder)
        try a.sync.syncNow()
        try b.sync.syncNow()
        try c.sync.syncNow()
        // Offline edits, in this order: A theme, B theme, C fontSize, A fontSize, B deletes lastPage
        try a.sync.set(1, forKey: "lastPage")
        try a.sync.syncNow()
        try b.sync.syncNow()
        try c.sync.syncNow()
        // Each in a later millisecond than the one before.
        let edits: [(TestDevice, String, PrefValue?)] = [(a, "theme", "a"), (b, "theme", "b"), (c, "fontSize", 10), (a, "fontSize", 11), (b, "lastPage", nil)]
        for (device, key, value) in edits {
            nextMillisecond()
            try device.sync.set(value, forKey: key)
        }
        for device in [c, b, a, c, b, a] { try device.sync.syncNow() }
        for device in [a, b, c] {
            XCTAssertEqual(device.value("theme"), "b")
            XCTAssertEqual(device.value("fontSize"), 11)
            XCTAssertNil(device.value("lastPage"))
        }
    }

    func testForgettingADeviceRemovesItsReplicaAndKeepsWhatItBrought() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let a = try TestDevice("a", in: scratch, folder: folder, first: true)
        let b = try TestDevice("b", in: scratch, folder: folder)
        try a.sync.syncNow()
        try b.sync.syncNow()
        try b.sync.set("from b", forKey: "theme")
        try b.sync.syncNow()
        try a.sync.syncNow()
        XCTAssertEqual(try a.sync.devices.keys.sorted(), ["device-b"])
        XCTAssertThrowsError(try a.sync.forgetDevice("device-a"))
        XCTAssertTrue(try a.sync.forgetDevice("device-b"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/replica-device-b.json"))
        XCTAssertEqual(try a.sync.devices, [:])
        try a.sync.syncNow()
        XCTAssertEqual(a.value("theme"), "from b")
        XCTAssertEqual(try a.replica()?.entries["theme"]?.value, "from b", "A's replica carries it on")
    }

    func testStatusTellsAMissingFolderNoEngineInitialSyncAndUpToDate() throws {
        let scratch = TemporaryFolder()
        let missing = scratch.path + "/not-there"
        let a = try TestDevice("a", in: scratch, folder: missing, first: true, engineCheck: .syncthingMarker)
        XCTAssertEqual(a.sync.status, .folderMissing(path: missing))
        try a.sync.set("dark", forKey: "theme")
        XCTAssertEqual(a.value("theme"), "dark", "local first: the suite works without its folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "a round does not create the synced folder")

        let folder = scratch.sub("shared")
        let b = try TestDevice("b", in: scratch, folder: folder + "/notes", engineCheck: .syncthingMarker)
        try FileManager.default.createDirectory(atPath: folder + "/notes", withIntermediateDirectories: true)
        guard case .engineNotRunning(let reason) = b.sync.status else { return XCTFail("\(b.sync.status)") }
        XCTAssertTrue(reason.contains(".stfolder"), reason)
        try FileManager.default.createDirectory(atPath: folder + "/.stfolder", withIntermediateDirectories: true)
        XCTAssertEqual(b.sync.status, .initialSync)
        let c = try TestDevice("c", in: scratch, folder: folder + "/notes", first: true, engineCheck: .syncthingMarker)
        try c.sync.syncNow()
        try b.sync.syncNow()
        guard case .upToDate(let lastMerge) = b.sync.status else { return XCTFail("\(b.sync.status)") }
        XCTAssertNotNil(lastMerge)
    }

    func testPointingASuiteAtAnotherFolderIsAnAccountChange() throws {
        let scratch = TemporaryFolder()
        let first = scratch.sub("first")
        let second = scratch.sub("second")
        let a = try TestDevice("a", in: scratch, folder: first, first: true)
        try a.sync.set("first folder", forKey: "theme")
        try a.sync.syncNow()
        let other = try TestDevice("x", in: scratch, folder: second, first: true)
        try other.sync.set("second folder", forKey: "theme")
        try other.sync.syncNow()

        let events = EventLog(a.sync.events)
        try a.store.enableDeviceSync(
            DeviceSyncConfiguration(folder: second, keys: ["theme", "fontSize", "lastPage", "tags"], engineCheck: .none), replicaID: "device-a")
        XCTAssertEqual(a.sync.status, .initialSync)
        let report = try a.sync.syncNow()
        XCTAssertEqual(report.merged, ["theme"])
        XCTAssertEqual(a.value("theme"), "second folder")
        XCTAssertNotNil(events.wait { $0 == .merged(keys: ["theme"], reason: .accountChange) })
    }

    func testTombstonesOlderThanTheRetentionAreDropped() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let store = try SuiteStore(suite: TestDevice.app, appID: TestDevice.app, root: scratch.sub("root"))
        let sync = try store.enableDeviceSync(
            DeviceSyncConfiguration(folder: folder, keys: ["theme"], isFirstDevice: true, tombstoneRetention: .seconds(3600), engineCheck: .none),
            replicaID: "device-r")
        try sync.set("dark", forKey: "theme")
        try sync.syncNow()
        try sync.set(nil, forKey: "theme")
        try sync.syncNow()
        XCTAssertEqual(try sync.entries["theme"]?.isTombstone, true, "kept within the retention")
        try store.enableDeviceSync(
            DeviceSyncConfiguration(folder: folder, keys: ["theme"], isFirstDevice: true, tombstoneRetention: .zero, engineCheck: .none),
            replicaID: "device-r")
        // The next millisecond's round finds it past a retention of zero.
        let stamp = try XCTUnwrap(try sync.entries["theme"]).stamp
        XCTAssertTrue(eventually { HybridLogicalClock.systemMilliseconds() > stamp.milliseconds })
        try sync.syncNow()
        XCTAssertNil(try sync.entries["theme"])
        XCTAssertNil(try DeviceSyncTests.replica(folder, "device-r")?.entries["theme"])
    }

    static func replica(_ folder: String, _ id: String) throws -> ReplicaDocument? {
        let path = folder + "/replica-\(id).json"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try ReplicaDocument(parsing: Array(data), path: path)
    }
}
