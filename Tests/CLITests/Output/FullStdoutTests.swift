import Foundation
import XCTest

/// Issue 29, item 4: every command checks its writes to stdout. A write that fails or stops
/// short — `/dev/full`, a real ext4 with 16 KiB free (scripts/with-filesystems) — ends the
/// command with exit 5 and one line on stderr naming the cause; a truncated backup is never
/// reported as a success. A closed pipe (`| head`) stays quiet: that is the reader's choice.
final class FullStdoutTests: XCTestCase {
    /// Runs `rizq-prefs` with stdout going to the file at `stdoutPath` (`/dev/full`).
    private func run(_ cli: CLIHarness, _ arguments: [String], stdoutPath: String, stdin: Data? = nil) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        process.arguments = arguments
        process.environment = cli.environment
        let output = try XCTUnwrap(FileHandle(forWritingAtPath: stdoutPath))
        defer { try? output.close() }
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    private func assertFullStdoutFailure(_ result: (status: Int32, stderr: String), _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 5, "\(what): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains("cannot write to stdout: No space left on device"), "\(what): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains("incomplete"), "\(what): \(result.stderr)", file: file, line: line)
    }

    func testEveryCommandThatPrintsFailsOnAFullStdout() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "theme_mode", "dark").status, 0)
        let folder = cli.root + "-inputs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dump = folder + "/dump.json"
        try Data(#"{"theme_mode":"light","daily_goal":"3"}"#.utf8).write(to: URL(fileURLWithPath: dump))
        let commands: [[String]] = [
            ["get", "theme_mode"], ["get", "theme_mode", "--json"], ["list"], ["list", "--json"], ["export"],
            ["suites"], ["suites", "--json"], ["doctor", "--skip-secrets"], ["doctor", "--skip-secrets", "--json"],
            ["schema"], ["schema", "--json"], ["--help"], ["--version"], ["help", "get"], ["get", "--help"],
            ["import-app", dump, "--dry-run"], ["import-app", dump, "--dry-run", "--json"],
        ]
        for arguments in commands {
            assertFullStdoutFailure(try run(cli, arguments, stdoutPath: "/dev/full"), arguments.joined(separator: " "))
        }
        // A command that changes the suite prints after the change is durable, and says so.
        let imported = try run(cli, ["import", "-"], stdoutPath: "/dev/full", stdin: Data(#"{"imported": 1}"#.utf8))
        assertFullStdoutFailure(imported, "import")
        XCTAssertTrue(imported.stderr.contains("the import itself is complete"), imported.stderr)
        XCTAssertEqual(try cli.run("get", "imported").stdout, "1\n")
        // Nothing on stdout, nothing to check: set still succeeds.
        XCTAssertEqual(try run(cli, ["set", "k", "v"], stdoutPath: "/dev/full").status, 0)
    }

    func testWatchEndsWithStatusFiveWhenItsStdoutFills() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "k", "0").status, 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        process.arguments = ["watch"]
        process.environment = cli.environment
        let output = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? output.close() }
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Synchronise on the line watch prints once it is watching.
        var stderr = Data()
        while !String(decoding: stderr, as: UTF8.self).contains("watching suite") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            stderr += chunk
        }
        XCTAssertTrue(String(decoding: stderr, as: UTF8.self).contains("watching suite"))
        XCTAssertEqual(try cli.run("set", "k", "1").status, 0)
        // A bound against a watch that goes on writing into the void (what it did before).
        if exited.wait(timeout: .now() + 60) == .timedOut {
            process.terminate()
            exited.wait()
            XCTFail("watch kept running after its stdout failed")
        }
        stderr += errors.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: stderr, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 5, text)
        XCTAssertTrue(text.contains("cannot write to stdout: No space left on device"), text)
    }

    func testSecretCommandsFailOnAFullStdout() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.fullstdout.\(UUID().uuidString.prefix(8))"
        defer { _ = try? cli.run(["secret", "delete", "--service", service, "token"]) }
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "token"], stdin: Data("opaque-test-value".utf8)).status, 0)
        for arguments in [["secret", "get", "--service", service, "token"], ["secret", "list", "--service", service], ["secret", "list", "--service", service, "--json"]] {
            assertFullStdoutFailure(try run(cli, arguments, stdoutPath: "/dev/full"), arguments.joined(separator: " "))
        }
    }

    /// `export > backup.json` on a real ext4 with 16 KiB free: exit 5 and the cause, never 0 with
    /// a truncated file; the same for `list` and `get`. The same export into a folder with room
    /// is whole. A reader that closes the pipe early ends the command quietly.
    func testAnExportToANearlyFullDiskFailsAndSaysSo() throws {
        guard geteuid() == 0 else { throw XCTSkip("scripts/with-filesystems needs root") }
        let cli = try CLIHarness()
        // About 608 KB, as in the report: 6,000 keys of 100 bytes.
        var object: [String: String] = [:]
        for index in 0..<6_000 { object[String(format: "k%05d", index)] = String(repeating: "v", count: 100) }
        object["big"] = String(repeating: "b", count: 100_000)
        let json = try JSONSerialization.data(withJSONObject: object)
        XCTAssertEqual(try cli.run(["import", "-"], stdin: json).status, 0)
        let whole = try cli.run("export")
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertGreaterThan(whole.stdoutBytes.count, 600_000)

        let script = #"""
            set -u
            for command in "export" "list" "list --json" "get big"; do
                rm -f "$RIZQ_FS_FULL/out"
                "$RIZQ_CLI" $command > "$RIZQ_FS_FULL/out" 2> "$RIZQ_FS_FULL/err"
                echo "status[$command] $?"
                echo "size[$command] $(stat -c %s "$RIZQ_FS_FULL/out")"
                echo "stderr[$command] $(cat "$RIZQ_FS_FULL/err")"
                rm -f "$RIZQ_FS_FULL/err"
            done
            "$RIZQ_CLI" export > "$RIZQ_FS_EXT4/backup.json"
            echo "roomy-status $?"
            echo "roomy-size $(stat -c %s "$RIZQ_FS_EXT4/backup.json")"
            "$RIZQ_CLI" export 2> "$RIZQ_FS_EXT4/pipe-err" | head -c 100 > /dev/null
            echo "pipe-status ${PIPESTATUS[0]}"
            echo "pipe-stderr-bytes $(stat -c %s "$RIZQ_FS_EXT4/pipe-err")"
            """#
        var environment = cli.environment
        environment["RIZQ_CLI"] = CLIHarness.binary
        let result = try runCommand(
            repositoryRoot().path + "/scripts/with-filesystems", ["/bin/bash", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func value(_ name: String) -> String {
            lines.first { $0.hasPrefix(name + " ") }.map { String($0.dropFirst(name.count + 1)) } ?? "(no \(name) line)\n\(result.stdout)\n\(result.stderr)"
        }
        for command in ["export", "list", "list --json", "get big"] {
            XCTAssertEqual(value("status[\(command)]"), "5", "\(command): \(value("stderr[\(command)]"))")
            XCTAssertTrue(value("stderr[\(command)]").contains("cannot write to stdout: No space left on device"), value("stderr[\(command)]"))
            XCTAssertLessThan(Int(value("size[\(command)]")) ?? .max, whole.stdoutBytes.count, command)
        }
        XCTAssertTrue(value("stderr[export]").contains("the export of suite com.rizq.clitest is incomplete"), value("stderr[export]"))
        XCTAssertEqual(value("roomy-status"), "0")
        XCTAssertEqual(value("roomy-size"), String(whole.stdoutBytes.count))
        XCTAssertTrue(["0", "141"].contains(value("pipe-status")), "a closed pipe ends the export quietly: \(value("pipe-status"))")
        XCTAssertEqual(value("pipe-stderr-bytes"), "0")
    }
}
