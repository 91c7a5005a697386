import Foundation
import XCTest
@testable import RizqPrefs

/// A layer file is believed only as an administrator's: root's, written by root alone, in root's
/// folders all the way from `/`, bounded, a JSON object. Anything else is skipped — named in the
/// report, never a crash, and never a reason to leave out the other layers.
final class LayerTrustTests: LayerTestCase {
    /// Writes a good defaults file beside the one under test, and opens the suite.
    private func openWithGoodNeighbour() throws -> SuiteStore {
        try layers.write("defaults", app: app, suite: app, #"{"neighbour": "read"}"#, dropIn: "50-good.json")
        return try standard()
    }

    private func assertSkipped(_ path: String, because words: String, in store: SuiteStore, file: StaticString = #filePath, line: UInt = #line) {
        let skipped = store.layerReport.skipped.filter { $0.path == path }
        XCTAssertEqual(skipped.count, 1, "\(store.layerReport.skipped)", file: file, line: line)
        XCTAssertTrue(skipped.first?.reason.contains(words) ?? false, "\(skipped)", file: file, line: line)
        XCTAssertEqual(store.string(forKey: "neighbour"), "read", "the other layer files are read all the same", file: file, line: line)
    }

    func testAFileAnotherUserOwnsIsSkipped() throws {
        let planted = try layers.write("managed", app: app, suite: app, #"{"update_url": "https://attacker.example"}"#)
        XCTAssertEqual(chown(planted, 65534, 65534), 0)
        let store = try openWithGoodNeighbour()
        XCTAssertNil(store.string(forKey: "update_url"))
        XCTAssertFalse(store.objectIsForced(forKey: "update_url"))
        assertSkipped(planted, because: "belongs to user 65534", in: store)
    }

    func testAFileItsGroupOrOthersCanWriteIsSkipped() throws {
        let planted = try layers.write("managed", app: app, suite: app, #"{"k": 1}"#, dropIn: "10-open.json")
        XCTAssertEqual(chmod(planted, 0o664), 0)
        let store = try openWithGoodNeighbour()
        XCTAssertNil(store.prefValue(forKey: "k"))
        assertSkipped(planted, because: "its group can write it", in: store)
    }

    func testAFolderAnotherUserCouldChangeTurnsAwayEverythingBelowIt() throws {
        let planted = try layers.write("managed", app: app, suite: app, #"{"k": 1}"#)
        let appFolder = (planted as NSString).deletingLastPathComponent
        XCTAssertEqual(chown(appFolder, 65534, 65534), 0)
        try layers.write("defaults", app: app, suite: app, #"{"neighbour": "read"}"#)
        let store = try standard()
        XCTAssertNil(store.prefValue(forKey: "k"))
        XCTAssertEqual(store.string(forKey: "neighbour"), "read")
        let skipped = try XCTUnwrap(store.layerReport.skipped.first { $0.path == planted })
        XCTAssertTrue(skipped.reason.contains("belongs to user 65534"), skipped.reason)
    }

    func testAFileThatIsNotAJSONObjectOrNotJSONOrTooLargeIsSkipped() throws {
        let array = try layers.write("managed", app: app, suite: app, "[1, 2]", dropIn: "10-array.json")
        let broken = try layers.write("managed", app: app, suite: app, #"{"k": "#, dropIn: "20-broken.json")
        let large = try layers.write("managed", app: app, suite: app, "{\"big\": \"" + String(repeating: "x", count: 2 << 20) + "\"}", dropIn: "30-large.json")
        let store = try openWithGoodNeighbour()
        let reasons = Dictionary(store.layerReport.skipped.map { ($0.path, $0.reason) }, uniquingKeysWith: { $1 })
        XCTAssertTrue(reasons[array]?.contains("not a JSON object") ?? false, "\(reasons)")
        XCTAssertTrue(reasons[broken]?.contains("not valid JSON") ?? false, "\(reasons)")
        XCTAssertTrue(reasons[large]?.contains("over the 1 MiB") ?? false, "\(reasons)")
        XCTAssertNil(store.prefValue(forKey: "big"))
        XCTAssertEqual(store.string(forKey: "neighbour"), "read")
    }

    func testAFIFOWhereALayerFileShouldBeIsNeverOpenedForReading() throws {
        let path = layers.path("managed", app: app, suite: app)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(path, 0o644), 0)
        // Opened as a FIFO would hang this open; it returns, and says why it was skipped.
        let store = try openWithGoodNeighbour()
        assertSkipped(path, because: "FIFO", in: store)
    }

    func testALinkIsFollowedOnlyThroughFoldersAnAdministratorOwns() throws {
        // NixOS and configuration tools put an administrator's files behind links.
        let target = layers.base + "/store/policy.json"
        try layers.place(Data(#"{"through_link": "yes"}"#.utf8), at: target)
        let link = layers.path("managed", app: app, suite: app)
        try FileManager.default.createDirectory(atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertEqual(try standard().string(forKey: "through_link"), "yes")

        // The same link into a folder another user could change is refused.
        let otherRoot = TemporaryRoot()
        let foreignFolder = layers.base + "/foreign"
        try layers.place(Data(#"{"through_foreign": "yes"}"#.utf8), at: foreignFolder + "/policy.json")
        XCTAssertEqual(chown(foreignFolder, 65534, 65534), 0)
        let dropIn = layers.path("managed", app: app, suite: app, dropIn: "20-link.json")
        try FileManager.default.createDirectory(atPath: (dropIn as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(foreignFolder + "/policy.json", dropIn), 0)
        let store = try SuiteStore(suite: app, appID: app, root: otherRoot.path)
        XCTAssertNil(store.prefValue(forKey: "through_foreign"))
        XCTAssertTrue(store.layerReport.skipped.contains { $0.path == dropIn && $0.reason.contains("65534") }, "\(store.layerReport.skipped)")
        XCTAssertEqual(store.string(forKey: "through_link"), "yes")
    }

    func testEnvironmentEntriesThatAreNotAbsoluteFoldersAreLeftOutAndNamed() throws {
        setenv("XDG_CONFIG_DIRS", "relative/xdg:\(layers.configDirectories[0])", 1)
        try layers.write("managed", app: app, suite: app, #"{"k": true}"#)
        let store = try standard()
        XCTAssertEqual(store.bool(forKey: "k"), true)
        XCTAssertTrue(store.layerReport.refusedVariables.contains { $0.contains("'relative/xdg' is not an absolute path") }, "\(store.layerReport.refusedVariables)")
    }

    func testAReservedMemberOfALayerFileIsLeftOutAndTheRestIsRead() throws {
        let path = try layers.write("defaults", app: app, suite: app, #"{"$schemaVersion": 4, "k": 1}"#)
        let store = try standard()
        XCTAssertEqual(store.integer(forKey: "k"), 1)
        XCTAssertEqual(store.migrationVersionForTests, 0)
        XCTAssertTrue(store.layerReport.skipped.contains { $0.path == path && $0.reason.contains("$schemaVersion") })
    }
}

extension SuiteStore {
    /// The migration version the suite file records (0 when none).
    var migrationVersionForTests: Int { schemaVersion }
}
