import Foundation
import RizqPrefs

/// `cross-process`: from `flush()` being called in a child process to this process's change
/// stream yielding the value. Foundation has nothing of the kind: ours alone.
enum CrossProcessWorkload {
    static func run(home: BenchHome, rounds: Int) async throws -> BenchResult {
        let store = try SuiteStore(suite: "group.com.rizq.bench", appID: BenchHome.appID, root: home.prefsRoot)
        let arrivals = ArrivalLog()
        let listener = Task {
            for await value in store.changes(forKey: "ping", as: Int.self) {
                if let value { arrivals.record(value, at: wallClockNanoseconds()) }
            }
        }
        defer { listener.cancel() }
        try await Task.sleep(for: .milliseconds(50))

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["child-ping", home.prefsRoot, "\(rounds)"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        try await Task.sleep(for: .milliseconds(200))

        var latencies: [Double] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[0]), let flushedAt = Int64(parts[1]),
                  let arrivedAt = arrivals.time(of: value) else { continue }
            latencies.append(Double(arrivedAt - flushedAt))
        }
        guard latencies.count >= rounds / 2 else { throw BenchError("only \(latencies.count) of \(rounds) changes arrived") }
        return BenchResult(workload: "cross-process", size: 1, ours: median(latencies), baseline: nil, baselineValue: nil, unit: "ns")
    }

    /// The child: sets `ping` and flushes, `rounds` times, printing when each flush was called.
    static func child(root: String, rounds: Int) throws {
        let store = try SuiteStore(suite: "group.com.rizq.bench", appID: BenchHome.appID, root: root)
        for value in 1...rounds {
            store.set(value, forKey: "ping")
            // From the moment flush() is called: the other process may see the new file even
            // before flush() returns (the rename lands before the folder's fsync).
            let flushedAt = wallClockNanoseconds()
            try store.flush()
            FileHandle.standardOutput.write(Data("\(value) \(flushedAt)\n".utf8))
            usleep(20_000)
        }
    }
}

/// When each value arrived, written by the listener task and read after the run.
final class ArrivalLog: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Int: Int64] = [:]

    func record(_ value: Int, at time: Int64) {
        lock.lock()
        if times[value] == nil { times[value] = time }
        lock.unlock()
    }

    func time(of value: Int) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        return times[value]
    }
}
