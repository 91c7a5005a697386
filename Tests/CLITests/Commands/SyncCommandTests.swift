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

    // MARK: Issue 37, device sync

    /// A fresh shared folder, removed by the caller's defer.
    private func sharedFolder() throws -> String {
        let shared = NSTemporaryDirectory() + "rizq-cli-sync-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        return shared
    }

    func testAHostileStampInAPeersReplicaNeitherCrashesNorSticks() throws {
        let shared = try sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let a = try device("device-a", shared)
        let suite = a.appID
        XCTAssertEqual(try a.run("sync", "enable", suite, "--folder", shared, "--keys", "theme", "--first-device", "--no-engine-check").status, 0)
        try a.run("set", "theme", "dark")
        XCTAssertEqual(try a.run("sync", "now", suite).status, 0)
        // The issue's replica: one stamp at the very end of the range.
        let hostile = "9223372036854775807.4294967295@evil"
        try #"{"app": "\#(suite)", "entries": {"theme": {"stamp": "\#(hostile)", "value": "evil"}}, "format": "rizq-prefs-replica-1", "replica": "evil", "suite": "\#(suite)"}"#
            .write(toFile: shared + "/replica-evil.json", atomically: true, encoding: .utf8)
        var result = try a.run("sync", "now", suite)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("skipped: key 'theme' of device evil not taken"), result.stdout)
        XCTAssertTrue(result.stdout.contains("maximum offset of 1 day"), result.stdout)
        XCTAssertEqual(try a.run("get", "theme").stdout, "dark\n")
        // Every later round after a local edit (exit 132 on arithmetic overflow before).
        for value in ["light", "blue", "green"] {
            try a.run("set", "theme", value)
            result = try a.run("sync", "now", suite, "--json")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains(#""recorded":["theme"]"#), result.stdout)
            XCTAssertEqual(try a.run("get", "theme").stdout, value + "\n")
        }
        XCTAssertEqual(filesContaining("9223372036854775807", under: a.root), [], "not in the state or the suite")
        XCTAssertEqual(filesContaining("9223372036854775807", under: shared), ["replica-evil.json"], "never published again")
    }

    func testEnablingAgainWithTheFolderWrittenAnotherWayKeepsAnUnsyncedEdit() throws {
        let shared = try sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let a = try device("device-a", shared)
        let b = try device("device-b", shared)
        let suite = a.appID
        XCTAssertEqual(try a.run("sync", "enable", suite, "--folder", shared, "--keys", "theme", "--first-device", "--no-engine-check").status, 0)
        try a.run("set", "theme", "dark")
        try a.run("sync", "now", suite)
        XCTAssertEqual(try b.run("sync", "enable", suite, "--folder", shared, "--keys", "theme", "--no-engine-check").status, 0)
        try b.run("sync", "now", suite)
        XCTAssertEqual(try b.run("get", "theme").stdout, "dark\n")
        for (round, spelling) in [shared + "/", shared + "/.", shared + "//./", shared + "/../" + (shared as NSString).lastPathComponent].enumerated() {
            let edit = "b-\(round)"
            try b.run("set", "theme", edit)  // an edit no round has recorded yet
            let enabled = try b.run("sync", "enable", suite, "--folder", spelling, "--keys", "theme", "--no-engine-check")
            XCTAssertEqual(enabled.status, 0, enabled.stderr)
            XCTAssertTrue(enabled.stdout.contains("status: up to date"), "the same folder, no account change (\(spelling)): \(enabled.stdout)")
            var result = try b.run("sync", "now", suite)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try b.run("get", "theme").stdout, edit + "\n", "the edit was kept (\(spelling))")
            result = try a.run("sync", "now", suite)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try a.run("get", "theme").stdout, edit + "\n", "and reached the other device (\(spelling))")
        }
        let status = try b.run("sync", "status", "--json")
        XCTAssertTrue(status.stdout.contains(#""folder":"\#(shared)""#), "kept in one spelling: \(status.stdout)")
    }

    func testForgettingADeviceNoSuiteKnowsSaysSoAndChangesNothing() throws {
        let shared = try sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let a = try device("device-a", shared)
        let b = try device("device-b", shared)
        let suite = a.appID
        XCTAssertEqual(try a.run("sync", "enable", suite, "--folder", shared, "--keys", "theme", "--first-device", "--no-engine-check").status, 0)
        XCTAssertEqual(try b.run("sync", "enable", suite, "--folder", shared, "--keys", "theme", "--no-engine-check").status, 0)
        try a.run("sync", "now", suite)
        try b.run("sync", "now", suite)
        try a.run("sync", "now", suite)
        let state = a.root + "/sync/apps/\(suite)/\(suite).json"
        let before = try XCTUnwrap(FileManager.default.contents(atPath: state))
        let result = try a.run("sync", "forget-device", "device-typo")
        XCTAssertEqual(result.status, 1, "not found: \(result.stdout)")
        XCTAssertTrue(result.stderr.contains("no device 'device-typo' is known"), result.stderr)
        XCTAssertTrue(result.stderr.contains("known: device-b"), result.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: state), before, "nothing was changed")
        XCTAssertEqual(try a.run("sync", "forget-device", "device-b").status, 0, "a known one still goes")
    }

    func testMergeConflictsNeverFollowsALinkOrReadsAFIFOAndOneBrokenCopyStopsNothing() throws {
        let a = try CLIHarness()
        try a.run("set", "theme", "dark")
        try a.run("set", "fontSize", "12", "--int")
        let elsewhere = try sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        // Another app's suite, with a password (a sync engine carries a link to it).
        let password = FakeToken.opaque()
        try #"{"password": "\#(password)", "other": 1}"#.write(toFile: elsewhere + "/com.other.app.json", atomically: true, encoding: .utf8)
        let directory = a.root + "/apps/\(a.appID)/\(a.appID).sync-conflict-20261126-103132-"
        try FileManager.default.createSymbolicLink(atPath: directory + "LINKAAA.json", withDestinationPath: elsewhere + "/com.other.app.json")
        XCTAssertEqual(mkfifo(directory + "FIFOAAA.json", 0o600), 0)
        try "{not json".write(toFile: directory + "BROKENA.json", atomically: true, encoding: .utf8)
        try #"{"fontSize": 16}"#.write(toFile: directory + "GOODAAA.json", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: directory + "GOODAAA.json")

        let result = try a.run("sync", "merge-conflicts")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func line(_ name: String) -> String { lines.first { $0.contains(name) } ?? "" }
        XCTAssertTrue(line("LINKAAA").contains("skipped, left in place") && line("LINKAAA").contains("symbolic link"), result.stdout)
        XCTAssertTrue(line("FIFOAAA").contains("skipped, left in place") && line("FIFOAAA").contains("FIFO"), result.stdout)
        XCTAssertTrue(line("BROKENA").contains("skipped, left in place") && line("BROKENA").contains("not valid JSON"), result.stdout)
        XCTAssertTrue(line("GOODAAA").contains("keys fontSize; archived to"), result.stdout)
        XCTAssertEqual(try a.run("get", "fontSize").stdout, "16\n", "the good copy was merged")
        XCTAssertEqual(try a.run("get", "password").status, 1, "nothing of the other app's suite came in")
        XCTAssertEqual(try a.run("get", "other").status, 1)
        XCTAssertFalse(String(decoding: a.bytes(a.standardPath) ?? Data(), as: UTF8.self).contains(password), "no byte of its password in the suite")
        var info = stat()
        XCTAssertEqual(lstat(directory + "LINKAAA.json", &info), 0, "the link is left in place")
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK)
    }
}
