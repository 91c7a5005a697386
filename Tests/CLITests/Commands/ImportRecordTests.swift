import Foundation
import XCTest

/// Issue 29, item 8: the record of imports (`<app>/rizq-migrations.json`) is not a suite: it is
/// not listed by `suites`, and no command opens it with `--suite` (exit 2). Records written
/// before still count: an import recorded there is "already imported".
final class ImportRecordTests: XCTestCase {
    private func writeDump(_ cli: CLIHarness) throws -> String {
        let folder = cli.root + "-inputs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/dump.json"
        // Settings only: no Secret Service is needed.
        try Data(#"{"theme_mode":"dark","daily_goal":"3"}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTheRecordIsNeitherListedNorOpenedAsASuite() throws {
        let cli = try CLIHarness()
        let dump = try writeDump(cli)
        let imported = try cli.run("import-app", dump)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let record = cli.root + "/apps/\(cli.appID)/rizq-migrations.json"
        let before = try XCTUnwrap(cli.bytes(record), "the import is recorded where it always was")

        let suites = try cli.run("suites")
        XCTAssertEqual(suites.status, 0, suites.stderr)
        XCTAssertFalse(suites.stdout.contains("rizq-migrations"), suites.stdout)
        XCTAssertTrue(suites.stdout.contains(cli.appID + ".json"), suites.stdout)
        XCTAssertFalse(try cli.run("suites", "--json").stdout.contains("rizq-migrations"))

        let attempts: [[String]] = [
            ["list"], ["get", "x"], ["set", "x", "1"], ["delete", "x"], ["export"], ["import", "-"], ["watch"], ["schema"],
        ]
        for attempt in attempts {
            let arguments = [attempt[0], "--suite", "rizq-migrations"] + attempt.dropFirst()
            let result = try cli.run(arguments, stdin: Data("{}".utf8))
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("records the imports it ran, not a suite"), result.stderr)
        }
        XCTAssertEqual(cli.bytes(record), before, "the record is untouched")

        // doctor still checks the record file (it can be damaged like any file).
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 0, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains(record + ": 1 key"), doctor.stdout)
    }

    func testAnImportRecordedBeforeStillCounts() throws {
        let cli = try CLIHarness()
        let dump = try writeDump(cli)
        XCTAssertEqual(try cli.run("import-app", dump).status, 0)
        // The record as an earlier release wrote it (its bytes kept), into a fresh root.
        let record = try XCTUnwrap(cli.bytes(cli.root + "/apps/\(cli.appID)/rizq-migrations.json"))
        let later = try CLIHarness()
        let folder = later.root + "/apps/\(later.appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try record.write(to: URL(fileURLWithPath: folder + "/rizq-migrations.json"))
        let again = try later.run("import-app", dump)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("already imported"), again.stdout)
        XCTAssertNil(later.bytes(later.standardPath), "nothing was imported again")
    }
}
