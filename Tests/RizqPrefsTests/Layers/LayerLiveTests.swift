import Foundation
import XCTest
@testable import RizqPrefs

/// A running process sees a layer file added, changed or removed — in another process, its
/// change stream reports the new value — as it sees another process's write.
final class LayerLiveTests: LayerTestCase {
    func testARunningAppSeesALockAppearAndGo() throws {
        let suite = "group.com.rizq.live"
        let store = try SuiteStore(suite: suite, appID: "tests", root: root.path)
        store.set("user", forKey: "mode")
        try store.flush()
        // The child follows the key; the layer folders do not exist when it starts.
        let child = try LiveChild(root, suite, ["watch", "mode", "3"], environment: layers.environment)
        XCTAssertNotNil(child.waitForLine { $0 == "ready" })
        let lock = try layers.write("managed", app: "tests", suite: suite, #"{"mode": "locked"}"#)
        XCTAssertNotNil(child.waitForLine { $0 == #""locked""# }, child.printed.description)
        try layers.place(Data(#"{"mode": "locked again"}"#.utf8), at: lock)
        XCTAssertNotNil(child.waitForLine { $0 == #""locked again""# }, child.printed.description)
        try layers.remove(lock)
        XCTAssertNotNil(child.waitForLine { $0 == #""user""# }, child.printed.description)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertEqual(child.printed, ["ready", #""locked""#, #""locked again""#, #""user""#])
    }

    func testADefaultInADropInFolderMadeLaterReachesTheStream() async throws {
        let store = try standard()
        let changes = Recorder(store.changes(forKey: "volume"))
        try layers.write("defaults", app: app, suite: app, #"{"volume": 30}"#, dropIn: "10-volume.json", directory: 1)
        var seen = await changes.wait(for: 1, in: self)
        XCTAssertEqual(seen, [.int(30)])
        // The first folder of XDG_CONFIG_DIRS wins over the second.
        try layers.write("defaults", app: app, suite: app, #"{"volume": 40}"#, directory: 0)
        seen = await changes.wait(for: 2, in: self)
        XCTAssertEqual(seen.last, .int(40))
        // A user's value hides the defaults: its change is the next one reported.
        store.set(55, forKey: "volume")
        seen = await changes.wait(for: 3, in: self)
        XCTAssertEqual(seen.last, .int(55))
    }

    func testAFileMadeUntrustedWhileRunningIsDroppedAndTheValueGoes() async throws {
        let lock = try layers.write("managed", app: app, suite: app, #"{"k": "forced"}"#)
        let store = try standard()
        XCTAssertEqual(store.string(forKey: "k"), "forced")
        let changes = Recorder(store.changes(forKey: "k"))
        XCTAssertEqual(chmod(lock, 0o666), 0)
        let seen = await changes.wait(for: 1, in: self)
        XCTAssertEqual(seen, [nil], "a chmod is seen: the file is no longer an administrator's alone")
        XCTAssertFalse(store.objectIsForced(forKey: "k"))
        XCTAssertTrue(store.layerReport.skipped.contains { $0.path == lock })
    }

    func testAnInstalledSchemaIsFollowedToo() async throws {
        let store = try standard()
        let changes = Recorder(store.changes(forKey: "goal"))
        let schema = PrefSchema(properties: ["goal": .init(types: [.integer], defaultValue: 3, minimum: 1, maximum: 10)])
        try layers.installSchema(schema.jsonData(), app: app, suite: app)
        let seen = await changes.wait(for: 1, in: self)
        XCTAssertEqual(seen, [.int(3)])
        XCTAssertEqual(store.installedSchema, schema)
    }
}
