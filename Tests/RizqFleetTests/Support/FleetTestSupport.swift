import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server the tests use: the one `scripts/with-postgres` started around the test
/// run (shared by every test: each uses suite names of its own), or a private one a test
/// starts with `--serve` (for tests that stop, kill or reconfigure it).
struct PostgresServer: Sendable {
    /// `RIZQ_TEST_POSTGRES_*` as with-postgres sets them.
    let environment: [String: String]

    /// The shared server of the test run.
    static func shared() throws -> PostgresServer {
        let environment = ProcessInfo.processInfo.environment
        try #require(
            environment["RIZQ_TEST_POSTGRES_URL"] != nil,
            "no PostgreSQL: run the fleet tests through scripts/test (or scripts/with-postgres swift test)")
        return PostgresServer(environment: environment)
    }

    func value(_ name: String) -> String { environment["RIZQ_TEST_POSTGRES_" + name] ?? "" }

    /// The engine URL without its password (which goes in PGPASSWORD: never in an argument list).
    var url: String { "postgres://\(value("USER"))@\(value("HOST")):\(value("PORT"))/\(value("DB"))?sslmode=disable" }
    var password: String { value("PASSWORD") }

    /// An engine for the test's own process.
    func engine(callTimeout: Duration = .seconds(5)) throws -> PostgresFleetEngine {
        var configuration = try PostgresFleetConfiguration(url: url, environment: ["PGPASSWORD": password])
        configuration.callTimeout = callTimeout
        return try PostgresFleetEngine(configuration: configuration)
    }

    /// `scripts/postgres-ctl VERB` for this server (start, stop-now, kill9, …); its output.
    @discardableResult
    func ctl(_ verb: String, _ arguments: [String] = []) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in self.environment { environment[name] = value }
        let result = try runCommand(value("CTL"), [verb] + arguments, environment: environment)
        try #require(result.status == 0, "postgres-ctl \(verb) failed: \(result.stderr)")
        return result.stdout
    }

    /// SQL as the superuser, through psql over the Unix socket (postgres-ctl psql).
    @discardableResult
    func psql(_ sql: String) throws -> String {
        try ctl("psql", ["-d", value("DB"), "-Atc", sql])
    }
}

/// A PostgreSQL server of one test's own (`scripts/with-postgres --serve`), stopped and
/// removed when the test ends (its stdin closed).
final class PrivatePostgres: Sendable {
    let server: PostgresServer
    private let process: Process
    private let input: Pipe

    init() throws {
        let process = Process()
        process.executableURL = repositoryRoot().appendingPathComponent("scripts/with-postgres")
        process.arguments = ["--serve"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = LineReader(output.fileHandleForReading)
        var environment: [String: String] = [:]
        while let line = lines.next(timeout: 120) {
            if line == "READY" { break }
            if let equals = line.firstIndex(of: "=") {
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        self.process = process
        self.input = input
        self.server = PostgresServer(environment: environment)
        try #require(environment["RIZQ_TEST_POSTGRES_URL"] != nil, "scripts/with-postgres --serve did not start a server")
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A child's stdout, line by line, read on a thread of its own as it comes, so that a test can
/// wait for a line (with a bound against a hang) while the child runs on.
final class LineReader: Sendable {
    private let state = Mutex<(lines: [String], taken: Int, ended: Bool)>(([], 0, false))
    private let arrived = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            // read(2) with its EINTR retried: FileHandle.availableData traps on EINTR.
            var buffer = Data()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[0..<count])
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    state.withLock { $0.lines.append(line) }
                    arrived.signal()
                }
            }
            state.withLock { $0.ended = true }
            arrived.signal()
        }
        thread.start()
    }

    /// Every line so far.
    var all: [String] { state.withLock { $0.lines } }

    /// The next line not yet taken, waiting at most `timeout` seconds; `nil` at the end.
    func next(timeout: Double = 60) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let result: String?? = state.withLock { state in
                if state.taken < state.lines.count {
                    state.taken += 1
                    return .some(state.lines[state.taken - 1])
                }
                return state.ended ? .some(nil) : nil
            }
            if let result { return result }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            _ = arrived.wait(timeout: .now() + min(left, 0.5))
        }
    }

    /// Takes lines until one satisfies `match`; that line, or `nil` (end, or the bound passed).
    @discardableResult
    func waitFor(timeout: Double = 60, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if match(line) { return line }
        }
        return nil
    }
}

/// One host of a fleet: `rizq-fleet-test-child` (or another executable) with a cache and an
/// origin of its own.
final class FleetHost: @unchecked Sendable {
    let process = Process()
    let lines: LineReader
    let errors: LineReader
    let root: String
    let origin: String
    private let input = Pipe()

    /// Starts `rizq-fleet-test-child --engine … --suite suite` (plus `arguments`), optionally
    /// through a wrapper such as `scripts/with-clock-offset +10m`.
    init(server: PostgresServer, suite: String, origin: String, arguments: [String] = [], wrapper: [String] = [], root: String? = nil) throws {
        self.root = root ?? NSTemporaryDirectory() + "rizq-fleet-host-\(origin)-\(UUID().uuidString.prefix(8))"
        self.origin = origin
        let child = productsFolder + "/rizq-fleet-test-child"
        let command = wrapper + [child, "--engine", server.url, "--suite", suite] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = self.root
        environment["RIZQ_PREFS_REPLICA_ID"] = origin
        environment["PGPASSWORD"] = server.password
        process.environment = environment
        let output = Pipe(), errorOutput = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        lines = LineReader(output.fileHandleForReading)
        errors = LineReader(errorOutput.fileHandleForReading)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    var pid: pid_t { process.processIdentifier }

    /// Sends one command line.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends a command and returns the first answer line that starts with one of `answers`.
    func ask(_ line: String, answers: [String], timeout: Double = 60) -> String? {
        send(line)
        return lines.waitFor(timeout: timeout) { reply in answers.contains { reply.hasPrefix($0) } }
    }

    /// Ends the child (quit, then SIGKILL if it does not).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
        send("quit")
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A suite name no other test uses.
func uniqueSuite(_ label: String) -> String {
    "test.\(label).\(UUID().uuidString.prefix(8).lowercased())"
}

/// A cache folder of the test's own.
func temporaryRoot(_ label: String) -> String {
    NSTemporaryDirectory() + "rizq-fleet-\(label)-\(UUID().uuidString.prefix(8))"
}

/// Opens a fleet suite in the test process with a cache under `root`.
func openFleet(_ suite: String, engine: any FleetEngine, root: String, origin: String = "test-host", writes: FleetWritePolicy = .requireEngine) throws -> FleetSuite {
    try FleetSuite(suite, engine: engine, options: FleetOptions(cache: FleetCacheLocation(suiteName: "fleet." + suite, appID: "rizq.fleet.tests", root: root), writes: writes, origin: origin))
}

/// Waits (bounded, never a fixed sleep) until `condition` holds.
func waitUntil(timeout: Double = 60, _ condition: () -> Bool) -> Bool {
    eventually(timeout: timeout, condition)
}

/// Seconds since `start`, for reports (never asserted).
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A line for the test log with a figure the issue asks to report (not asserted).
func report(_ line: String) {
    FileHandle.standardError.write(Data("[fleet report] \(line)\n".utf8))
}
