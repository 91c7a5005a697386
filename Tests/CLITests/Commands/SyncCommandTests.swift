import Foundation
import XCTest

/// `rizq-prefs sync …` between two "devices" (two roots, two replica ids) sharing one folder.
final class SyncCommandTests: XCTestCase {
    private func device(_ id: String, _ folder: String) throws -> CLIHarness {
        let harness = try CLIHarness()
        harness.environment["RIZQ_PREFS_REPLICA_ID"] = id
        return harness
    }

    func testEnableNowStatusAndForgetDeviceBetweenTwoDevices() throws {
        let shared = NSTemporaryDirectory() + "rizq-cli-sync-\(UUID().uuidString.prefix(8))"
        // A Syncthing folder, as its marker says.
        try FileManager.default.createDirectory(atPath: shared + "/.stfolder", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let a = try device("device-a", shared)
        let b = try device("device-b", shared)
        let suite = a.appID

        var result = try a.run("sync", "now", suite)
        XCTAssertEqual(result.status, 1, "not enabled yet: not found")
        XCTAssertTrue(result.stderr.contains("sync enable"), result.stderr)

        try a.run("set", "theme", "dark")
        try a.run("set", "windowFrame", "local only")
        result = try a.run("sync", "enable", suite, "--folder", shared, "--keys", "theme,fontSize", "--first-device")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("device device-a"), result.stdout)
        result = try a.run("sync", "now", suite)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("published: yes"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shared + "/replica-device-a.json"))
        let ignored = try String(contentsOfFile: shared + "/.stignore", encoding: .utf8)
        XCTAssertTrue(ignored.contains(".replica-*.lock\n.replica-*.json.tmp-*\n"), "a replica's lock and temporary files stay on their device")

        try b.run("set", "theme", "light")  // B's value from before sync: never overwrites A's
        XCTAssertEqual(try b.run("sync", "enable", suite, "--folder", shared, "--keys", "theme", "fontSize").status, 0)
        result = try b.run("sync", "now", suite, "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""initialSyncCompleted":true"#), result.stdout)
        XCTAssertEqual(try b.run("get", "theme").stdout, "dark\n")
        XCTAssertEqual(try b.run("get", "windowFrame").status, 1, "a key that is not synced stays on its device")

        try b.run("set", "fontSize", "15", "--int")
        try b.run("sync", "now", suite)
        try a.run("sync", "now", suite)
        XCTAssertEqual(try a.run("get", "fontSize").stdout, "15\n")

        result = try a.run("sync", "status", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""devices":["device-b"]"#), result.stdout)
        XCTAssertTrue(result.stdout.contains("up to date"), result.stdout)
        result = try a.run("sync", "status")
        XCTAssertTrue(result.stdout.contains(suite), result.stdout)

        XCTAssertEqual(try a.run("sync", "forget-device", "device-a").status, 2, "a device cannot forget itself")
        result = try a.run("sync", "forget-device", "device-b")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/replica-device-b.json"))
        XCTAssertEqual(try a.run("get", "fontSize").stdout, "15\n", "what the device brought stays")
    }

    func testACredentialInASyncedKeyIsNotSynced() throws {
        let shared = NSTemporaryDirectory() + "rizq-cli-sync-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let a = try device("device-a", shared)
        XCTAssertEqual(try a.run("sync", "enable", a.appID, "--folder", shared, "--keys", "note", "--first-device", "--no-engine-check").status, 0)
        XCTAssertTrue(try a.run("sync", "status").stdout.contains("up to date"), "no engine to look for")
        let token = FakeToken.github()
        try a.run("set", "note", token)
        let result = try a.run("sync", "now", a.appID)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("not synced: note"), result.stdout)
        XCTAssertFalse(result.stdout.contains(token), "the value is never printed")
        XCTAssertEqual(filesContaining(token, under: shared), [])
    }

    func testMergeConflictsMergesArchivesAndThenFindsNothing() throws {
        let a = try CLIHarness()
        try a.run("set", "theme", "dark")
        try a.run("set", "fontSize", "12", "--int")
        let copy = a.root + "/apps/\(a.appID)/\(a.appID).sync-conflict-20261126-103132-PPR2SPG.json"
        try #"{"fontSize": 16, "sidebar": true}"#.write(toFile: copy, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: copy)

        var result = try a.run("sync", "merge-conflicts", "--dry-run")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("keys fontSize, sidebar"), result.stdout)
        XCTAssertEqual(try a.run("get", "fontSize").stdout, "12\n")
        result = try a.run("sync", "merge-conflicts")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("archived to \(a.root)/sync/conflicts/"), result.stdout)
        XCTAssertEqual(try a.run("get", "fontSize").stdout, "16\n")
        XCTAssertEqual(try a.run("get", "sidebar").stdout, "true\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
        XCTAssertEqual(try a.run("sync", "merge-conflicts").stdout, "no conflict copies\n", "a second run changes nothing")
    }
}
