import Foundation
import XCTest

/// Issue 29, item 8: a `migrate` whose suite write fails said "the change is kept in memory:
/// flush again" as the process exited. It says what happened — nothing was imported, the suites
/// are as they were — and what to do: free space or fix the folder, then run the import again.
final class ImportAppWriteFailureTests: XCTestCase {
    private func assertHonest(_ result: CLIResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 3, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("nothing was imported: the suites are as they were"), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("run the import again"), result.stderr, file: file, line: line)
        XCTAssertFalse(result.stderr.contains("kept in memory"), result.stderr, file: file, line: line)
        XCTAssertFalse(result.stderr.contains("flush"), result.stderr, file: file, line: line)
    }

    func testAMigrateIntoAReadOnlyFolderSaysNothingWasImported() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "theme_mode", "light").status, 0)
        let undo = try makeReadOnly(cli.root + "/apps/\(cli.appID)")
        defer { undo() }
        let before = fileSnapshot(under: cli.root)
        let result = try cli.run(["import-app", "-"], stdin: Data(#"{"theme_mode":"dark","daily_goal":"3"}"#.utf8))
        assertHonest(result)
        XCTAssertEqual(fileSnapshot(under: cli.root), before)
    }

    /// The same on a real ext4 with 16 KiB free (scripts/with-filesystems): the suite does not fit.
    func testAMigrateOntoAFullDiskSaysNothingWasImported() throws {
        guard geteuid() == 0 else { throw XCTSkip("scripts/with-filesystems needs root") }
        let cli = try CLIHarness()
        var object: [String: String] = [:]
        for index in 0..<500 { object["setting_\(index)"] = String(repeating: "v", count: 100) }
        let dump = cli.root + "/dump.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: dump))
        var environment = cli.environment
        environment["RIZQ_CLI"] = CLIHarness.binary
        environment["RIZQ_DUMP"] = dump
        let script = #"""
            export RIZQ_PREFS_HOME="$RIZQ_FS_FULL/prefs"
            "$RIZQ_CLI" migrate "$RIZQ_DUMP" > "$RIZQ_FS_FULL/report" 2> "$RIZQ_FS_FULL/err"
            echo "status $?"
            echo "stderr $(tr '\n' ' ' < "$RIZQ_FS_FULL/err")"
            echo "suite-files $(find "$RIZQ_PREFS_HOME" -name '*.json' | wc -l)"
            """#
        let result = try runCommand(repositoryRoot().path + "/scripts/with-filesystems", ["/bin/bash", "-c", script], environment: environment)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func value(_ name: String) -> String {
            lines.first { $0.hasPrefix(name + " ") }.map { String($0.dropFirst(name.count + 1)) } ?? "(no \(name) line)\n\(result.stdout)\n\(result.stderr)"
        }
        assertHonest(CLIResult(status: Int32(value("status")) ?? -1, stdout: "", stderr: value("stderr"), stdoutBytes: Data()))
        XCTAssertTrue(value("stderr").contains("No space left on device"), value("stderr"))
        XCTAssertEqual(value("suite-files"), "0", "no suite and no record")
    }
}
