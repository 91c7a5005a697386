import Foundation
import RizqPrefs
import XCTest

/// Issue 18, failure 7 (the command line's part): quarantined files import, `$date`-only suites
/// round-trip through export and import, long numbers give short errors, a failed write is
/// reported once, doctor checks that each location is a writable folder, and `--service ""` is
/// an error.
final class SuiteCommandFaultTests: XCTestCase {
    /// A file an earlier release moved aside because of one out-of-range number: import brings it back.
    func testAQuarantinedFileImports() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/apps/\(cli.appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let quarantined = folder + "/\(cli.appID).corrupt-20260101T000000Z.json"
        let text = #"{"big": 1e400, "theme": "dark", "when": {"$date": "+010000-01-01T00:00:00Z"}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: quarantined))

        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 3, doctor.stdout)
        let suggested = "rizq-prefs import --salvage --app '\(cli.appID)' --suite '\(cli.appID)' '\(quarantined)'"
        XCTAssertTrue(doctor.stdout.contains(suggested), doctor.stdout)

        let imported = try cli.run("import", "--suite", cli.appID, quarantined)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try cli.run("get", "big").stdout, "1e400\n")
        XCTAssertEqual(try cli.run("get", "theme").stdout, "dark\n")
        XCTAssertEqual(try cli.run("get", "when").stdout, #"{"$date":"+010000-01-01T00:00:00Z"}"# + "\n")
    }

    func testASuiteWhoseOnlyKeyIsDateExportsAndImports() throws {
        for value in [["2026-11-23T07:00:00Z"], ["2026-11-23T07:00:00Z", "--date"], ["AAEC", "--data"]] {
            let cli = try CLIHarness()
            XCTAssertEqual(try cli.run(["set", "$date"] + value).status, 0)
            let export = try cli.run("export")
            XCTAssertEqual(export.status, 0, export.stderr)
            XCTAssertEqual(try cli.run("delete", "$date").status, 0)
            let imported = try cli.run(["import", "-"], stdin: export.stdoutBytes)
            XCTAssertEqual(imported.status, 0, "\(value): \(imported.stderr)")
            XCTAssertEqual(try cli.run("export").stdout, export.stdout, "\(value)")
        }
    }

    func testLongNumbersGiveShortErrors() throws {
        let cli = try CLIHarness()
        let digits = String(repeating: "9", count: 100_000)
        let attempts: [[String]] = [
            ["set", "k", digits, "--int"], ["set", "k", digits + ".5e", "--double"], ["set", "k", "@" + digits, "--date"],
            ["set", "k", "[" + digits + ".]", "--json"],
        ]
        for arguments in attempts {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertLessThan(result.stderr.utf8.count, 400, "\(arguments[3]): \(result.stderr.prefix(400))")
        }
        let broken = try cli.run(["import", "-"], stdin: Data(#"{"k": \#(digits).}"#.utf8))
        XCTAssertEqual(broken.status, 2)
        XCTAssertLessThan(broken.stderr.utf8.count, 400, String(broken.stderr.prefix(400)))
        // A valid number that no Double holds is kept as its text.
        let kept = try cli.run(["import", "-"], stdin: Data(#"{"k": \#(digits)}"#.utf8))
        XCTAssertEqual(kept.status, 0, String(kept.stderr.prefix(400)))
        XCTAssertEqual(try cli.run("get", "k").stdout, digits + "\n")
    }

    func testAFailedWriteIsReportedOnceWithoutFlushAgain() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/apps/\(cli.appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let undo = try makeReadOnly(folder)
        defer { undo() }
        for arguments in [["set", "k", "v"], ["import", "-"]] {
            let result = try cli.run(arguments, stdin: Data(#"{"k": 1}"#.utf8))
            XCTAssertEqual(result.status, 3, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): the error once:\n\(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot write suite file"), result.stderr)
            XCTAssertTrue(result.stderr.contains("run the command again"), result.stderr)
            XCTAssertFalse(result.stderr.contains("flush"), result.stderr)
        }
        undo()
        XCTAssertNil(cli.bytes(cli.standardPath), "nothing was written after the error either")
    }

    func testDoctorChecksThatEachLocationIsAWritableFolder() throws {
        // The root a file, a folder under a file, a read-only root, an app's folder a file.
        let cli = try CLIHarness()
        try cli.run("set", "k", "v")
        let file = cli.root + "/a-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for home in [file, file + "/sub"] {
            let doctor = try cli.run(["doctor", "--skip-secrets"], environment: ["RIZQ_PREFS_HOME": home])
            XCTAssertEqual(doctor.status, 3, doctor.stdout)
            XCTAssertTrue(doctor.stdout.contains("is not a folder") && doctor.stdout.contains("fix: move it away"), doctor.stdout)
        }

        let undo = try makeReadOnly(cli.root)
        defer { undo() }
        let readOnly = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(readOnly.status, 3, readOnly.stdout)
        XCTAssertTrue(readOnly.stdout.contains("\(cli.root): the location"), readOnly.stdout)
        XCTAssertTrue(readOnly.stdout.contains("every write fails"), readOnly.stdout)
        undo()

        try FileManager.default.createDirectory(atPath: cli.root + "/apps", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: cli.root + "/apps/com.other"))
        let appFile = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(appFile.status, 3, appFile.stdout)
        XCTAssertTrue(appFile.stdout.contains("/apps/com.other: the location is not a folder"), appFile.stdout)

        try FileManager.default.removeItem(atPath: cli.root + "/apps/com.other")
        let healthy = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(healthy.status, 0, healthy.stdout)
        XCTAssertTrue(healthy.stdout.contains("writable"), healthy.stdout)
    }

    func testAnEmptyServiceIsAnError() throws {
        let cli = try CLIHarness()
        for arguments in [["secret", "get", "--service", "", "k"], ["secret", "list", "--service", ""], ["doctor", "--service", ""]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--service is empty"), result.stderr)
        }
        let migrate = try cli.run(["import-app", "--service", "", "-"], stdin: Data(#"{"a_token":"x"}"#.utf8))
        XCTAssertEqual(migrate.status, 2, migrate.stderr)
        XCTAssertTrue(migrate.stderr.contains("empty"), migrate.stderr)
    }
}
