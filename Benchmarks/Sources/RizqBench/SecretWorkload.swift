import Foundation
import RizqSecrets

/// `secret-get`: a read of an existing token. Ours: `SecretServiceStore.secretBytes(forAccount:)`
/// in this process; against Python's `keyring.get_password` (its Secret Service backend, in a
/// long-lived helper process, timed there call by call) and a `secret-tool lookup` process.
/// Rounds alternate the three, so that all see the same machine and the same daemon.
enum SecretWorkload {
    static let service = "com.rizq.bench"
    static let account = "auth_token"
    /// A stand-in for a sign-in token: the length of a typical JWT.
    static let token = "eyJhbGciOiJIUzI1NiJ9." + String(repeating: "x", count: 160) + ".bench"

    struct Options {
        var rounds: Int
        var callsPerRound: Int
        var spawnsPerRound: Int
        var warmupRounds: Int
    }

    static func run(options: Options, python: String?, helper: String?) throws -> [BenchResult] {
        let store = SecretServiceStore(service: service)
        try store.setSecret(token, forAccount: account)
        defer { _ = try? store.deleteSecret(forAccount: account) }

        let keyring = try python.map { python in
            guard let helper else { throw BenchError("set RIZQ_BENCH_KEYRING_HELPER with RIZQ_BENCH_PYTHON") }
            return try KeyringHelper(python: python, script: helper)
        }
        defer { keyring?.stop() }

        var ours: [Double] = []
        var python: [Double] = []
        var secretTool: [Double] = []
        for round in 0..<(options.warmupRounds + options.rounds) {
            let warm = round >= options.warmupRounds
            var oursRound: [Double] = []
            for _ in 0..<options.callsPerRound {
                var value: Data?
                let elapsed = try elapsedNanoseconds { value = try store.secretBytes(forAccount: account) }
                guard value == Data(token.utf8) else { throw BenchError("SecretServiceStore read another value") }
                oursRound.append(elapsed)
            }
            let pythonRound = try keyring?.time(calls: options.callsPerRound) ?? []
            var toolRound: [Double] = []
            for _ in 0..<options.spawnsPerRound { toolRound.append(try secretToolLookup()) }
            if warm {
                ours += oursRound
                python += pythonRound
                secretTool += toolRound
            }
        }

        let oursMedian = median(ours)
        var results: [BenchResult] = []
        if keyring != nil {
            results.append(BenchResult(workload: "secret-get", size: 1, ours: oursMedian, baseline: "python keyring.get_password", baselineValue: median(python)))
        }
        results.append(BenchResult(workload: "secret-get", size: 1, ours: oursMedian, baseline: "secret-tool lookup (a process)", baselineValue: median(secretTool)))
        return results
    }

    /// One `secret-tool lookup` process, from start to exit, its output checked.
    private static func secretToolLookup() throws -> Double {
        var result: (status: Int32, output: Data) = (0, Data())
        let elapsed = try elapsedNanoseconds {
            result = try spawnAndWait("/usr/bin/secret-tool", ["lookup", "service", service, "account", account])
        }
        guard result.status == 0, result.output == Data(token.utf8) else {
            throw BenchError("secret-tool lookup failed (status \(result.status))")
        }
        return elapsed
    }
}

/// The Python side of `secret-get`: Benchmarks/Helpers/keyring_get.py in a process of its own.
final class KeyringHelper {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(python: String, script: String) throws {
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, SecretWorkload.service, "python-" + SecretWorkload.account]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data((SecretWorkload.token + "\n").utf8))
        guard try readLine() == "ready" else { throw BenchError("the keyring helper did not start") }
    }

    /// Per-call times of `calls` `keyring.get_password` calls, in nanoseconds.
    func time(calls: Int) throws -> [Double] {
        try input.fileHandleForWriting.write(contentsOf: Data("\(calls)\n".utf8))
        let times = try readLine().split(separator: " ").compactMap { Double($0) }
        guard times.count == calls else { throw BenchError("the keyring helper answered \(times.count) of \(calls) calls") }
        return times
    }

    func stop() {
        try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw BenchError("the keyring helper ended (status \(process.isRunning ? -1 : process.terminationStatus))") }
            buffer.append(more)
        }
    }
}
