import Foundation
import XCTest

/// `get`, `set`, `list`, `delete` and `export` read or write once and end: they set up no
/// inotify watch (counted with strace), make no folder for a read, and still read what another
/// process wrote; `watch` does watch.
final class OneShotCommandTests: XCTestCase {
    func testOneShotCommandsSetUpNoWatchAndWatchDoes() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "streak", "3", "--int").status, 0)
        for line in [["get", "streak"], ["set", "streak", "4", "--int"], ["list"], ["export"], ["delete", "streak"]] {
            let calls = try inotifyCalls(cli, line)
            XCTAssertEqual(calls.status, 0, "\(line): \(calls.stderr)")
            XCTAssertEqual(calls.inotify, [], "\(line) set up an inotify watch")
        }
        // A read of a suite whose folder is not there makes no folder.
        XCTAssertEqual(try cli.run("get", "--app", "com.rizq.never", "k").status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.root + "/apps/com.rizq.never"))
        // `watch` follows the file: it does set one up (the control that shows the trace sees it).
        let watched = try watchCalls(cli)
        XCTAssertTrue(watched.contains { $0.hasPrefix("inotify_add_watch") }, "watch set up no watch: \(watched)")
    }

    /// Runs `rizq-prefs LINE` under `strace -f -e trace=inotify_init,inotify_init1,inotify_add_watch`
    /// and returns the traced calls.
    private func inotifyCalls(_ cli: CLIHarness, _ line: [String]) throws -> (status: Int32, stderr: String, inotify: [String]) {
        let trace = cli.root + "/trace-\(UUID().uuidString.prefix(6))"
        let result = try runProcess("/usr/bin/strace", strace(trace) + [CLIHarness.binary] + line, environment: cli.environment)
        return (result.status, String(decoding: result.stderr, as: UTF8.self), try calls(in: trace))
    }

    /// `rizq-prefs watch` under strace: once it says it is watching (its line on stderr), it is
    /// stopped with SIGKILL (a test runner may start it with SIGINT and SIGTERM ignored), and
    /// the calls it made are returned.
    private func watchCalls(_ cli: CLIHarness) throws -> [String] {
        let trace = cli.root + "/trace-watch"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = strace(trace) + [CLIHarness.binary, "watch"]
        process.environment = cli.environment
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("watching suite") {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        XCTAssertTrue(String(decoding: said, as: UTF8.self).contains("watching suite"), String(decoding: said, as: UTF8.self))
        // The traced child is strace's only child.
        let children = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children", encoding: .utf8)) ?? ""
        let pids = children.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertFalse(pids.isEmpty, "strace's child was not found")
        for pid in pids { kill(pid, SIGKILL) }
        // Never left waiting: without a child to stop, strace itself is stopped.
        if pids.isEmpty { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return try calls(in: trace)
    }

    private func strace(_ trace: String) -> [String] {
        ["-f", "-qq", "-o", trace, "-e", "trace=inotify_init,inotify_init1,inotify_add_watch"]
    }

    private func calls(in trace: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: trace, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { line in
            // "PID call(…) = N": the call and its arguments.
            let words = line.split(separator: " ", maxSplits: 1)
            return String(words.count == 2 ? words[1] : line)
        }.filter { $0.hasPrefix("inotify") }
    }
}
