import Foundation
import XCTest

/// Issue 29, item 8: the record of imports (`<app>/rizq-imports.json`) is not a suite: it is
/// not listed by `suites`, and no command opens it with `--suite` (exit 2). Issue 51: records
/// written under the record's earlier name (`rizq-migrations.json`) still count: an import
/// recorded there is "already imported", and that file is never written.
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
        let record = cli.root + "/apps/\(cli.appID)/rizq-imports.json"
        let before = try XCTUnwrap(cli.bytes(record), "the import is recorded")
        XCTAssertTrue(imported.stdout.contains("Record: \(record)"), imported.stdout)
        // An earlier record beside it (its earlier name) is no suite either.
        let earlier = cli.root + "/apps/\(cli.appID)/rizq-migrations.json"
        try before.write(to: URL(fileURLWithPath: earlier))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: earlier)

        let suites = try cli.run("suites")
        XCTAssertEqual(suites.status, 0, suites.stderr)
        XCTAssertFalse(suites.stdout.contains("rizq-imports") || suites.stdout.contains("rizq-migrations"), suites.stdout)
        XCTAssertTrue(suites.stdout.contains(cli.appID + ".json"), suites.stdout)
        let json = try cli.run("suites", "--json").stdout
        XCTAssertFalse(json.contains("rizq-imports") || json.contains("rizq-migrations"), json)

        let attempts: [[String]] = [
            ["list"], ["get", "x"], ["set", "x", "1"], ["delete", "x"], ["export"], ["import", "-"], ["watch"], ["schema"],
        ]
        for name in ["rizq-imports", "rizq-migrations"] {
            for attempt in attempts {
                let arguments = [attempt[0], "--suite", name] + attempt.dropFirst()
                let result = try cli.run(arguments, stdin: Data("{}".utf8))
                XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("records the imports it ran, not a suite"), result.stderr)
            }
        }
        XCTAssertEqual(cli.bytes(record), before, "the record is untouched")
        XCTAssertEqual(cli.bytes(earlier), before, "the earlier record is untouched")

        // doctor still checks the record file (it can be damaged like any file).
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 0, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains(record + ": 1 key"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains(earlier + ": 1 key"), doctor.stdout)
    }

    func testAnImportRecordedBeforeStillCounts() throws {
        let cli = try CLIHarness()
        let dump = try writeDump(cli)
        XCTAssertEqual(try cli.run("import-app", dump).status, 0)
        // The record as an earlier release wrote it (the same format, under the record's
        // earlier name), into a fresh root.
        let record = try XCTUnwrap(cli.bytes(cli.root + "/apps/\(cli.appID)/rizq-imports.json"))
        let later = try CLIHarness()
        let folder = later.root + "/apps/\(later.appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let earlier = folder + "/rizq-migrations.json"
        try record.write(to: URL(fileURLWithPath: earlier))
        let again = try later.run("import-app", dump)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("Import '"), again.stdout)
        XCTAssertTrue(again.stdout.contains("already imported"), again.stdout)
        XCTAssertNil(later.bytes(later.standardPath), "nothing was imported again")
        XCTAssertNil(later.bytes(folder + "/rizq-imports.json"), "nothing was recorded")

        // Run again on purpose: recorded under the new name (its second run), the earlier file kept.
        let forced = try later.run("import-app", dump, "--force", "--json")
        XCTAssertEqual(forced.status, 0, forced.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(forced.stdout.utf8)) as? [String: Any])
        XCTAssertNil(report["migration"])
        let id = try XCTUnwrap(report["import"] as? String)
        XCTAssertEqual(report["recordFile"] as? String, folder + "/rizq-imports.json")
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: XCTUnwrap(later.bytes(folder + "/rizq-imports.json"))) as? [String: Any])
        XCTAssertEqual((written[id] as? [String: Any])?["runs"] as? Int, 2)
        XCTAssertEqual(later.bytes(earlier), record, "the earlier record is read, never written")
    }
}
