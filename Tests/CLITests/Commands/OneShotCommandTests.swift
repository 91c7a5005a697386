import Foundation
import XCTest

/// `get`, `set`, `list`, `delete` and `export` read or write once and end: they set up no
/// inotify watch (counted with strace), make no folder for a read, and still read what another
/// process wrote; `watch` does watch (read from `/proc` while it runs).
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
        // The control that shows the trace would see a watch: a plain program that sets one up.
        let control = try runProcess("/usr/bin/strace", strace(cli.root + "/trace-control") + [
            "/usr/bin/python3", "-c",
            "import ctypes, os; libc = ctypes.CDLL(None); fd = libc.inotify_init1(0); "
                + "assert fd >= 0; assert libc.inotify_add_watch(fd, os.getcwd().encode(), 2) >= 0",
        ], environment: cli.environment)
        XCTAssertEqual(control.status, 0, String(decoding: control.stderr, as: UTF8.self))
        let traced = (try? String(contentsOfFile: cli.root + "/trace-control", encoding: .utf8)) ?? "(no trace)"
        XCTAssertTrue(try calls(in: cli.root + "/trace-control").contains { $0.hasPrefix("inotify_add_watch") }, traced)
        // `watch` follows the file: while it runs, it holds an inotify instance with a watch.
        let watches = try watchesHeldByWatch(cli)
        XCTAssertFalse(watches.isEmpty, "watch set up no inotify watch")
    }

    /// Starts `rizq-prefs watch`; once it says it is watching (its line on stderr), reads the
    /// inotify watches it holds from `/proc/PID/fdinfo`, then stops it with SIGKILL (a test
    /// runner may start it with SIGINT and SIGTERM ignored) and waits for it.
    private func watchesHeldByWatch(_ cli: CLIHarness) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        process.arguments = ["watch"]
        process.environment = cli.environment
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("watching suite") {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        XCTAssertTrue(String(decoding: said, as: UTF8.self).contains("watching suite"), String(decoding: said, as: UTF8.self))
        let fdFolder = "/proc/\(process.processIdentifier)/fd"
        var watches: [String] = []
        for fd in try FileManager.default.contentsOfDirectory(atPath: fdFolder) {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: fdFolder + "/" + fd)) == "anon_inode:inotify",
                  let info = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/fdinfo/\(fd)", encoding: .utf8)
            else { continue }
            watches += info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.map(String.init)
        }
        return watches
    }

    /// Runs `rizq-prefs LINE` under `strace -f -e trace=inotify_init,inotify_init1,inotify_add_watch`
    /// and returns the traced calls.
    private func inotifyCalls(_ cli: CLIHarness, _ line: [String]) throws -> (status: Int32, stderr: String, inotify: [String]) {
        let trace = cli.root + "/trace-\(UUID().uuidString.prefix(6))"
        let result = try runProcess("/usr/bin/strace", strace(trace) + [CLIHarness.binary] + line, environment: cli.environment)
        return (result.status, String(decoding: result.stderr, as: UTF8.self), try calls(in: trace))
    }

    private func strace(_ trace: String) -> [String] {
        ["-f", "-qq", "-o", trace, "-e", "trace=inotify_init,inotify_init1,inotify_add_watch"]
    }

    private func calls(in trace: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: trace, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { line in
            // "PID call(…) = N", the PID padded with spaces to five columns (a PID of four
            // digits is followed by two): the call and its arguments.
            String(line.drop { $0.isNumber }.drop { $0 == " " })
        }.filter { $0.hasPrefix("inotify") }
    }
}
