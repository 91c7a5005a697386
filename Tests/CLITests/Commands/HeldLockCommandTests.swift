import Foundation
import XCTest

/// Issue 29, item 5: a suite lock held by a stopped or hung process made `rizq-prefs set` wait
/// for ever, with no message. The wait is bounded (`RIZQ_PREFS_LOCK_TIMEOUT`); then the command
/// exits 3 naming the holder (from `/proc/locks`: its pid, command line and state) and what to
/// do, and changes nothing. Once the holder lets go, the same command writes.
final class HeldLockCommandTests: XCTestCase {
    /// A real process holding the suite's lock as a writer does (`flock` on `.<suite>.lock`),
    /// stopped (SIGSTOP) once it says so, as in the report.
    private final class Holder {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(lockFile: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [
                "-c",
                "import fcntl, os, sys\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()",
                lockFile,
            ]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let line = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
            guard line == "locked\n" else { throw CocoaError(.fileLocking) }
        }

        /// Lets the holder go on and end, releasing the lock (once).
        func release() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGCONT)
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    func testSetGivesUpNamingTheStoppedHolderThenWritesOnceTheLockIsFree() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "theme_mode", "light").status, 0)
        let lockFile = cli.root + "/apps/\(cli.appID)/.\(cli.appID).lock"
        XCTAssertTrue(FileManager.default.fileExists(atPath: lockFile), "the suite's lock file is where the test holds it")
        let holder = try Holder(lockFile: lockFile)
        let pid = holder.process.processIdentifier
        defer { holder.release() }
        kill(pid, SIGSTOP)

        let result = try cli.run(["set", "theme_mode", "dark"], environment: ["RIZQ_PREFS_LOCK_TIMEOUT": "0.5"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("pid \(pid)"), "names the holder: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("python3"), "and its command line: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("stopped"), "and that it is stopped: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("kill -CONT \(pid)"), "and what to do: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("nothing was changed"), result.stderr)
        XCTAssertFalse(result.stderr.contains("flush again"), "no advice for an app from a command that is over: \(result.stderr)")

        holder.release()
        XCTAssertEqual(try cli.run("get", "theme_mode").stdout, "light\n", "the command that gave up wrote nothing")
        XCTAssertEqual(try cli.run(["set", "theme_mode", "dark"], environment: ["RIZQ_PREFS_LOCK_TIMEOUT": "0.5"]).status, 0)
        XCTAssertEqual(try cli.run("get", "theme_mode").stdout, "dark\n")
    }
}
