import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Why every wait here is `async` and every blocking call runs `offPool`:
//
// swift-testing runs every suite of the test process at once on Swift's cooperative thread
// pool, which has one thread per core — two on the CI machine. A test that blocks one of them
// (waiting for a child's line with a semaphore, for a script with `waitUntilExit`, polling with
// `usleep`) leaves the others' engine calls no thread to run on: their deadline timers (on
// Dispatch) fired while the calls had not even started, and nearly every fleet test failed with
// "the fleet engine … is unavailable (no answer within 5 s)" when the target ran whole, while
// each passed alone. So nothing in this target blocks a pool thread: waits suspend, and what
// must block (a child process, a script) does so on a thread of its own.

/// Runs blocking work (a child process, a script) on a thread of its own and suspends until it
/// ends, so that it never holds one of the cooperative pool's few threads.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// ``offPool(_:)`` for work that cannot fail.
func onOwnThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            continuation.resume()
        }.start()
    }
}

/// `runCommand` off the pool (see ``offPool(_:)``).
@discardableResult
func run(_ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await offPool { try runCommand(executable, arguments, input: input, environment: environment) }
}

/// Waits for `process` to end, off the pool.
func exited(_ process: Process) async {
    let box = UncheckedBox(process)
    await onOwnThread { box.value.waitUntilExit() }
}

/// A value handed to another thread that the caller no longer touches meanwhile.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

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
    func ctl(_ verb: String, _ arguments: [String] = []) async throws -> String {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in self.environment { environment[name] = value }
        let result = try await run(value("CTL"), [verb] + arguments, environment: environment)
        try #require(result.status == 0, "postgres-ctl \(verb) failed: \(result.stderr)")
        return result.stdout
    }

    /// SQL as the superuser, through psql over the Unix socket (postgres-ctl psql).
    @discardableResult
    func psql(_ sql: String) async throws -> String {
        try await ctl("psql", ["-d", value("DB"), "-Atc", sql]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A PostgreSQL server of one test's own (`scripts/with-postgres --serve`), stopped and
/// removed when the test ends (its stdin closed).
final class PrivatePostgres: Sendable {
    let server: PostgresServer
    private let process: UncheckedBox<Process>
    private let input: Pipe

    /// Starts one and waits (suspended) for its "READY" line.
    static func start() async throws -> PrivatePostgres {
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
        while let line = await lines.next(timeout: 120) {
            if line == "READY" { break }
            if let equals = line.firstIndex(of: "=") {
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        let started = PrivatePostgres(process: process, input: input, server: PostgresServer(environment: environment))
        try #require(environment["RIZQ_TEST_POSTGRES_URL"] != nil, "scripts/with-postgres --serve did not start a server")
        return started
    }

    private init(process: Process, input: Pipe, server: PostgresServer) {
        self.process = UncheckedBox(process)
        self.input = input
        self.server = server
    }

    /// Stops the server and waits until with-postgres has removed it.
    func stop() async {
        try? input.fileHandleForWriting.close()
        await exited(process.value)
    }

    deinit {
        // Closing stdin stops it; its end is awaited on a thread of its own (never on the pool).
        try? input.fileHandleForWriting.close()
        let process = process
        Thread { process.value.waitUntilExit() }.start()
    }
}

/// A child's stdout, line by line, read on a thread of its own as it comes, so that a test can
/// wait (suspended, with a bound against a hang) for a line while the child runs on.
final class LineReader: Sendable {
    private struct State {
        var lines: [String] = []
        var taken = 0
        var ended = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Reads `handle` to its end. The reader owns a duplicate of its descriptor, taken here once:
    /// `FileHandle.fileDescriptor` traps once the handle is closed (its deinit closes it), and
    /// the reader thread asking for it after that took the whole test process down (SIGILL).
    init(_ handle: FileHandle) {
        let descriptor = dup(handle.fileDescriptor)
        try? handle.close()
        let thread = Thread { [self] in
            defer {
                if descriptor >= 0 { close(descriptor) }
                let waiters = state.withLock { state in
                    state.ended = true
                    defer { state.waiters = [:] }
                    return state.waiters
                }
                for waiter in waiters.values { waiter.resume() }
            }
            guard descriptor >= 0 else { return }
            // read(2) with EINTR retried: FileHandle.availableData traps on EINTR.
            var buffer = Data()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[0..<count])
                var arrived: [String] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    arrived.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                guard !arrived.isEmpty else { continue }
                let waiters = state.withLock { state in
                    state.lines += arrived
                    defer { state.waiters = [:] }
                    return state.waiters
                }
                for waiter in waiters.values { waiter.resume() }
            }
        }
        thread.start()
    }

    /// Every line so far.
    var all: [String] { state.withLock { $0.lines } }

    /// Suspends until there are more than `count` lines, the output ended, or `deadline` passed.
    private func arrival(after count: Int, deadline: Date) async {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id: Int? = state.withLock { state in
                if state.lines.count > count || state.ended { return nil }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[id] = continuation
                return id
            }
            guard let id else {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }

    /// The next line not yet taken, waiting at most `timeout` seconds; `nil` at the end.
    func next(timeout: Double = 60) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (line, count, ended): (String?, Int, Bool) = state.withLock { state in
                if state.taken < state.lines.count {
                    state.taken += 1
                    return (state.lines[state.taken - 1], state.lines.count, state.ended)
                }
                return (nil, state.lines.count, state.ended)
            }
            if let line { return line }
            if ended || deadline.timeIntervalSinceNow <= 0 { return nil }
            await arrival(after: count, deadline: deadline)
        }
    }

    /// Takes lines until one satisfies `match`; that line, or `nil` (end, or the bound passed).
    @discardableResult
    func waitFor(timeout: Double = 60, _ match: (String) -> Bool) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = await next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if match(line) { return line }
        }
        return nil
    }

    /// Waits until every line so far satisfies `condition` (taking none); whether it did
    /// before the bound passed or the output ended.
    func waitUntil(timeout: Double = 60, _ condition: ([String]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (lines, ended) = state.withLock { ($0.lines, $0.ended) }
            if condition(lines) { return true }
            if ended || deadline.timeIntervalSinceNow <= 0 { return false }
            await arrival(after: lines.count, deadline: deadline)
        }
    }

    /// Waits until `line` has been printed (taking none).
    func waitUntil(printed line: String, timeout: Double = 60) async -> Bool {
        await waitUntil(timeout: timeout) { $0.contains(line) }
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
    /// Whether the cache folder is this host's own (removed at the end), not one the test gave.
    private let ownsRoot: Bool

    /// Starts `rizq-fleet-test-child --engine … --suite suite` (plus `arguments`), optionally
    /// through a wrapper such as `scripts/with-clock-offset +10m`.
    init(server: PostgresServer, suite: String, origin: String, arguments: [String] = [], wrapper: [String] = [], root: String? = nil) throws {
        self.root = root ?? NSTemporaryDirectory() + "rizq-fleet-host-\(origin)-\(UUID().uuidString.prefix(8))"
        self.ownsRoot = root == nil
        self.origin = origin
        let child = productsFolder + "/rizq-fleet-test-child"
        let command = wrapper + [child, "--engine", server.url, "--suite", suite] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = self.root
        environment["RIZQ_PREFS_REPLICA_ID"] = origin
        environment["PGPASSWORD"] = server.password
        // The arguments again, for a child under a wrapper that hides them (with-clock-offset:
        // see FleetChild.swift).
        if !wrapper.isEmpty { environment["RIZQ_FLEET_CHILD_ARGUMENTS"] = Array(command.dropFirst(wrapper.count + 1)).joined(separator: "\n") }
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
        // Ends the child on a thread of its own (never blocking the pool), then removes its
        // cache — unless the test gave the folder (another host may start from that cache).
        let process = UncheckedBox(process), input = input, root = ownsRoot ? root : nil
        Thread { Self.end(process.value, input: input, removing: root) }.start()
    }

    var pid: pid_t { process.processIdentifier }

    /// Sends one command line.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends a command and returns the first answer line that starts with one of `answers`.
    func ask(_ line: String, answers: [String], timeout: Double = 60) async -> String? {
        send(line)
        return await lines.waitFor(timeout: timeout) { reply in answers.contains { reply.hasPrefix($0) } }
    }

    /// Ends the child (quit, then SIGKILL if it has not ended 10 s later), waiting for it.
    func stop() async {
        let process = UncheckedBox(process), input = input
        await onOwnThread { Self.end(process.value, input: input, removing: nil) }
    }

    private static func end(_ process: Process, input: Pipe, removing root: String?) {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
            try? input.fileHandleForWriting.close()
            // The child exits on "quit" or at the end of its stdin; one that has not after 10 s
            // is killed, so the wait for its exit is bounded without polling.
            let pid = process.processIdentifier
            let killer = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: killer)
            process.waitUntilExit()
            killer.cancel()
        }
        if let root { try? FileManager.default.removeItem(atPath: root) }
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

/// Waits (suspended, bounded) until `condition` holds, looking again every few milliseconds:
/// for a state of this process (a suite's status) that announces itself nowhere a test can
/// await. The bound only stops a hang; it measures nothing.
func waitUntil(timeout: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
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

/// Reaps `process` (already told to end) on a thread of its own: for `defer`, which cannot wait.
func reapInBackground(_ process: Process) {
    let box = UncheckedBox(process)
    Thread { box.value.waitUntilExit() }.start()
}
