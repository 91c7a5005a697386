import Foundation
import RizqTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `rizq-prefs fleet …` as a user runs it against one server: through `rizq-prefs` (which
/// executes `rizq-prefs-fleet`), each host with a cache of its own under `root`.
struct FleetCLI: Sendable {
    let server: PostgresServer
    let root: String

    /// The environment of `host`: its cache, its origin, the password.
    func environment(host: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root + "/" + host
        environment["RIZQ_PREFS_REPLICA_ID"] = host
        environment["PGPASSWORD"] = server.password
        return environment
    }

    /// The whole command line for `arguments` on `suite` (`engine` instead of the server's URL).
    func commandLine(_ arguments: [String], suite: String, engine: String? = nil) -> [String] {
        ["fleet"] + arguments + ["--engine", engine ?? server.url, "--suite", suite]
    }

    /// Runs `rizq-prefs fleet ARGUMENTS --engine … --suite suite` as `host`, to its end.
    @discardableResult
    func callAsFunction(_ arguments: [String], suite: String, host: String = "cli-host", input: String? = nil, engine: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run(productsFolder + "/rizq-prefs", commandLine(arguments, suite: suite, engine: engine), input: input, environment: environment(host: host))
    }

    /// Starts `rizq-prefs fleet watch` as `host` (a process of its own, ended with the returned
    /// watch).
    func watch(suite: String, host: String, arguments: [String] = []) throws -> FleetWatchProcess {
        try FleetWatchProcess(arguments: commandLine(["watch"] + arguments, suite: suite), environment: environment(host: host))
    }
}

/// A running `rizq-prefs fleet watch`: its stdout and stderr line by line; killed (and reaped
/// off the pool) when the test lets it go.
final class FleetWatchProcess: @unchecked Sendable {
    let process = Process()
    let lines: LineReader
    let errors: LineReader

    init(arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: productsFolder + "/rizq-prefs")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        process.standardInput = FileHandle.nullDevice
        try process.run()
        lines = LineReader(output.fileHandleForReading)
        errors = LineReader(errorOutput.fileHandleForReading)
    }

    /// Waits for the line that says watching has begun.
    func begun(timeout: Double = 120) async -> Bool {
        await errors.waitFor(timeout: timeout) { $0.hasPrefix("watching fleet suite") } != nil
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        reapInBackground(process)
    }
}

/// An interactive psql session as the superuser on a server's database: a transaction a test
/// holds open (a row lock) while a command runs, and a second session to look at the server.
/// Each ``ask(_:timeout:)`` waits for a marker the session prints after the statement, so the
/// answer belongs to that statement (never a sleep).
final class PsqlSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lines: LineReader
    let errors: LineReader
    private let asked = Atomic<Int>(0)

    init(server: PostgresServer) throws {
        process.executableURL = URL(fileURLWithPath: server.value("CTL"))
        process.arguments = ["psql", "-d", server.value("DB"), "-At", "-v", "ON_ERROR_STOP=0"]
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in server.environment { environment[name] = value }
        process.environment = environment
        let output = Pipe(), errorOutput = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        lines = LineReader(output.fileHandleForReading)
        errors = LineReader(errorOutput.fileHandleForReading)
    }

    /// Runs one statement (or a psql command); the lines it printed, `nil` when the session
    /// did not answer in `timeout` seconds.
    @discardableResult
    func ask(_ sql: String, timeout: Double = 60) async -> [String]? {
        let number = asked.wrappingAdd(1, ordering: .relaxed).newValue
        let marker = "@@rizq-done-\(number)"
        // psql runs a statement at its semicolon (a psql command at once): without one, the
        // marker would come first.
        let trimmed = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        let statement = trimmed.hasPrefix("\\") || trimmed.hasSuffix(";") ? trimmed : trimmed + ";"
        input.fileHandleForWriting.write(Data((statement + "\n\\echo " + marker + "\n").utf8))
        var answer: [String] = []
        while let line = await lines.next(timeout: timeout) {
            if line == marker { return answer }
            answer.append(line)
        }
        return nil
    }

    /// The first line of the answer to `sql`.
    func value(_ sql: String, timeout: Double = 60) async -> String? {
        await ask(sql, timeout: timeout)?.first
    }

    /// Ends the session (an open transaction is rolled back) and waits for it.
    func close() async {
        try? input.fileHandleForWriting.close()
        await exited(process)
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { reapInBackground(process) }
    }
}

/// Asks `observer` again and again (suspended between asks, bounded) until `sql`'s first line
/// is `expected`: for a server state (a session waiting for a lock) that announces itself
/// nowhere a test can await. The bound only stops a hang; it measures nothing.
func waitUntil(_ observer: PsqlSession, _ sql: String, is expected: String, timeout: Double = 60) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await observer.value(sql) == expected { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return false
}

/// A command run with a bound: killed (SIGKILL) when it has not ended after `timeout` seconds,
/// so that a command that would loop for ever fails the test instead of hanging it. Its
/// stderr is counted line by line and only its first 64 KiB kept (a loop writes gigabytes).
func runBounded(_ executable: String, _ arguments: [String], environment: [String: String], timeout: Double) async throws
    -> (status: Int32, killed: Bool, stdout: String, stderrLines: Int, stderrHead: String)
{
    try await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let errors = BoundedReader(errorOutput.fileHandleForReading)
        let outputs = BoundedReader(output.fileHandleForReading)
        let killed = KilledMark()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem {
            killed.set()
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        errors.wait()
        outputs.wait()
        return (process.terminationStatus, killed.isSet, outputs.head, errors.lines, errors.head)
    }
}

/// Whether the bound of ``runBounded(_:_:environment:timeout:)`` killed the command.
private final class KilledMark: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// Reads a pipe to its end on a thread of its own, counting lines and keeping the first 64 KiB.
private final class BoundedReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private(set) var lines = 0
    private var kept = Data()

    init(_ handle: FileHandle) {
        let descriptor = dup(handle.fileDescriptor)
        try? handle.close()
        Thread { [self] in
            defer {
                if descriptor >= 0 { close(descriptor) }
                done.signal()
            }
            guard descriptor >= 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                lines += chunk[0..<count].count { $0 == UInt8(ascii: "\n") }
                if kept.count < 65_536 { kept.append(contentsOf: chunk[0..<min(count, 65_536 - kept.count)]) }
            }
        }.start()
    }

    /// Waits until the pipe has ended (called off the pool).
    func wait() { done.wait() }

    var head: String { String(decoding: kept, as: UTF8.self) }
}
