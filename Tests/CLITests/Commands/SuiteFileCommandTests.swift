import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// suites, export, import, and what the CLI does with damaged and unreadable suite files.
final class SuiteFileCommandTests: XCTestCase {
    func testSuitesListsEveryExistingSuiteWithItsPath() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("suites").stdout, "")
        try cli.run("set", "a", "1")
        try cli.run("set", "--suite", "extra", "b", "2")
        try cli.run("set", "--suite", "group.com.rizq.app", "c", "3")
        try cli.run("set", "--app", "com.other", "d", "4")
        let json = try cli.run("suites", "--json")
        XCTAssertEqual(json.status, 0)
        let expected: PrefValue = [
            ["suite": "group.com.rizq.app", "app": .null, "group": true, "path": .string(cli.groupPath("group.com.rizq.app"))],
            ["suite": "com.other", "app": "com.other", "group": false, "path": .string(cli.root + "/apps/com.other/com.other.json")],
            ["suite": "com.rizq.clitest", "app": "com.rizq.clitest", "group": false, "path": .string(cli.standardPath)],
            ["suite": "extra", "app": "com.rizq.clitest", "group": false, "path": .string(cli.root + "/apps/com.rizq.clitest/extra.json")],
        ]
        XCTAssertEqual(try JSONReader.parse(json.stdout), expected)
        let table = try cli.run("suites", "--app", "com.other").stdout
        XCTAssertTrue(table.contains("group.com.rizq.app") && table.contains("com.other.json"), table)
        XCTAssertFalse(table.contains("extra"), "--app shows one app's suites and the group suites")
    }

    func testExportIsTheFileFormatAndImportBringsItBackByteForByte() throws {
        let cli = try CLIHarness()
        try cli.run("set", "when", "2026-11-22T13:47:00.123456Z", "--date")
        try cli.run("set", "blob", "AAEC/w==", "--data")
        try cli.run("set", "ratio", "1", "--double")
        try cli.run("set", "prefs", #"{"dailyGoal": 3, "preferredTimeSlots": ["fajr"]}"#, "--json")
        let original = try XCTUnwrap(cli.bytes(cli.standardPath))
        let export = try cli.run("export")
        XCTAssertEqual(export.status, 0)
        XCTAssertEqual(export.stdoutBytes, original, "export prints the suite exactly as the file holds it")

        try FileManager.default.removeItem(atPath: cli.standardPath)
        let imported = try cli.run(["import", "-"], stdin: export.stdoutBytes)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(cli.bytes(cli.standardPath), original)
    }

    func testImportMergesInOneBatchAndReplaceReplaces() throws {
        let cli = try CLIHarness()
        try cli.run("set", "kept", "old")
        try cli.run("set", "overwritten", "old")
        try cli.run("set", "removed", "old")
        let file = cli.root + "/in.json"
        try Data(#"{"overwritten": "new", "added": 5, "removed": null}"#.utf8).write(to: URL(fileURLWithPath: file))
        let merged = try cli.run("import", file)
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertTrue(merged.stdout.contains("imported 3 keys"), merged.stdout)
        XCTAssertEqual(try JSONReader.parse(try cli.run("list", "--json").stdout), ["kept": "old", "overwritten": "new", "added": 5])

        let replaced = try cli.run("import", "--replace", "-", stdin: #"{"only": true}"#)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(try JSONReader.parse(try cli.run("list", "--json").stdout), ["only": true])
    }

    func testBadImportInputExitsTwoAndLeavesTheSuiteUntouched() throws {
        let cli = try CLIHarness()
        try cli.run("set", "keep", "me")
        let before = try XCTUnwrap(cli.bytes(cli.standardPath))
        let missing = try cli.run("import", cli.root + "/no-such-file.json")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no file"), missing.stderr)
        for input in ["[1, 2]", "\"text\"", "{\"a\": 1,", "not json", "{\"bad\": NaN}", "\u{FF}\u{FE}"] {
            let result = try cli.run("import", "--replace", "-", stdin: input)
            XCTAssertEqual(result.status, 2, "\(input): \(result.stderr)")
            XCTAssertEqual(cli.bytes(cli.standardPath), before, "untouched after \(input)")
        }
        let binary = try cli.run(["import", "-"], stdin: Data([0xFF, 0x00, 0xC3, 0x28]))
        XCTAssertEqual(binary.status, 2)
        XCTAssertEqual(cli.bytes(cli.standardPath), before)
    }

    func testACorruptSuiteFileIsMovedAsideByteForByteAndReportedWithExitThree() throws {
        let cli = try CLIHarness()
        try cli.run("set", "k", "v")
        let damaged = Data("{\"half\": \"writ".utf8)
        try damaged.write(to: URL(fileURLWithPath: cli.standardPath))
        let result = try cli.run("get", "k")
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("was damaged") && result.stderr.contains("moved aside"), result.stderr)
        let folder = cli.root + "/apps/\(cli.appID)"
        let quarantined = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".corrupt-") }
        XCTAssertEqual(quarantined.count, 1)
        XCTAssertEqual(cli.bytes(folder + "/" + (quarantined.first ?? "")), damaged, "kept byte for byte")
        // The suite works again, empty.
        XCTAssertEqual(try cli.run("set", "k", "fresh").status, 0)
        XCTAssertEqual(try cli.run("get", "k").stdout, "fresh\n")
        // doctor points at the quarantined file.
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 3)
        XCTAssertTrue(doctor.stdout.contains(quarantined.first ?? "?"), doctor.stdout)
    }

    func testAnUnreadableSuiteIsAStorageErrorWithExitThree() throws {
        let cli = try CLIHarness()
        // A folder where the suite file should be: not a file the store can read or replace.
        try FileManager.default.createDirectory(atPath: cli.standardPath, withIntermediateDirectories: true)
        for arguments in [["get", "k"], ["set", "k", "v"], ["list"], ["export"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 3, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot read suite file"), result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
        }
    }

    func testAWriteThatFailsIsAStorageErrorWithExitThree() throws {
        let cli = try CLIHarness()
        // The app's folder is a file: the suite cannot be created there.
        try FileManager.default.createDirectory(atPath: cli.root + "/apps", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: cli.root + "/apps/\(cli.appID)"))
        let result = try cli.run("set", "k", "v")
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot"), result.stderr)
    }
}
