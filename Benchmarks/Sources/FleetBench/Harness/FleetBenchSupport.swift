import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why a fleet benchmark could not run.
struct FleetBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The PostgreSQL server scripts/bench started (scripts/with-postgres), as the benchmark's
/// children and the floors reach it.
struct BenchServer: Sendable {
    let host: String
    let port: Int
    let user: String
    let password: String
    let database: String

    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let host = environment["RIZQ_TEST_POSTGRES_HOST"], let port = environment["RIZQ_TEST_POSTGRES_PORT"].flatMap(Int.init),
            let user = environment["RIZQ_TEST_POSTGRES_USER"], let password = environment["RIZQ_TEST_POSTGRES_PASSWORD"],
            let database = environment["RIZQ_TEST_POSTGRES_DB"]
        else { throw FleetBenchError("run FleetBench under scripts/with-postgres (scripts/bench does)") }
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// The engine URL, without its password (PGPASSWORD carries it).
    var url: String { "postgres://\(user)@\(host):\(port)/\(database)?sslmode=disable" }
}

/// A child process of this benchmark, its stdout read line by line on a thread of its own.
final class BenchChild: @unchecked Sendable {
    let process = Process()
    private let state = Mutex<(lines: [String], taken: Int, ended: Bool)>(([], 0, false))
    private let arrived = DispatchSemaphore(value: 0)

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The descriptor is taken once, here, as a duplicate the reader owns:
        // FileHandle.fileDescriptor traps once the handle is closed (its deinit closes it).
        let descriptor = dup(output.fileHandleForReading.fileDescriptor)
        try? output.fileHandleForReading.close()
        Thread { [self] in
            defer { if descriptor >= 0 { close(descriptor) } }
            // read(2) with its EINTR retried: FileHandle.availableData traps on EINTR.
            var buffer = Data()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                guard descriptor >= 0 else { break }
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
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
        }.start()
    }

    /// The next line, waiting at most `timeout` seconds; `nil` at the end or after the bound.
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

    /// Lines until one starting with `prefix`; that line.
    func waitFor(_ prefix: String, timeout: Double = 60) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if line.hasPrefix(prefix) { return line }
        }
        throw FleetBenchError("a child never printed '\(prefix)'")
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }
}

/// Nanoseconds of an async body.
func elapsed(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

func progress(_ text: String) {
    FileHandle.standardError.write(Data("  \(text)\n".utf8))
}
