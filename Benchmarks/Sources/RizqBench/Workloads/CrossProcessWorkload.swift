import CBenchGLib
import Foundation
import RizqPrefs

/// `cross-process`: from a child process starting to change a value (ours: `set` + `flush()`;
/// GSettings: `g_settings_set_int64` + `g_settings_sync()`) to this process being told (ours: the
/// key's change stream yields it; GSettings: its `changed::ping` signal runs). Median and p99.
///
/// The rounds are paced by the arrivals, not by sleeps: this process asks the child for the
/// next value only once the last one arrived (or was given up on after `Options.lostAfter`).
enum CrossProcessWorkload {
    static let suite = "group.com.rizq.bench"

    struct Latencies {
        var median: Double
        var p99: Double
        var lost: Int
    }

    static func run(home: BenchHome, options: Options) throws -> BenchResult {
        let ours = try measureOurs(home: home, options: options)
        let gsettings = try measureGSettings(options: options)
        var result = BenchResult(workload: "cross-process", size: 1, ours: ours.median, unit: "ns", oursP99: ours.p99)
        result.lost = ours.lost
        result.peer("GSettings (dconf)", gsettings.median, p99: gsettings.p99, lost: gsettings.lost)
        return result
    }

    private static func measureOurs(home: BenchHome, options: Options) throws -> Latencies {
        let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: home.prefsRoot)
        let arrivals = ArrivalLog()
        // Subscribed here, before the child starts; the stream is read on a task of its own.
        let stream = store.changes(forKey: "ping", as: Int.self)
        let listener = Task.detached {
            for await value in stream {
                if let value { arrivals.record(value, at: wallClockNanoseconds()) }
            }
        }
        defer { listener.cancel() }
        return try rounds(child: ["child-ping", "ours", home.prefsRoot], arrivals: arrivals, options: options)
    }

    private static func measureGSettings(options: Options) throws -> Latencies {
        let arrivals = ArrivalLog()
        let context = Unmanaged.passRetained(arrivals)
        defer { context.release() }
        let listener = try withGLibError { error, size in
            bench_listener_start(GSettingsPeer.pingSchema, GSettingsPeer.pingKey, { value, context in
                guard let context else { return }
                Unmanaged<ArrivalLog>.fromOpaque(context).takeUnretainedValue().record(Int(value), at: wallClockNanoseconds())
            }, context.toOpaque(), error, size)
        }
        defer { bench_listener_stop(listener) }
        return try rounds(child: ["child-ping", "gsettings"], arrivals: arrivals, options: options)
    }

    /// Drives the child through the warm-up and measured rounds; the warm-up also covers the
    /// listener's subscription being set up asynchronously (GSettings' is).
    private static func rounds(child arguments: [String], arrivals: ArrivalLog, options: Options) throws -> Latencies {
        let child = try ChildProcess(selfPath(), arguments)
        guard child.readLine() == "ready" else { throw BenchError("the \(arguments[1]) ping child did not start") }
        var latencies: [Double] = []
        var lost = 0
        let warmup = options.crossProcessWarmup
        for value in 1...(warmup + options.crossProcessRounds) {
            try child.send("\(value)")
            guard let line = child.readLine(), let space = line.firstIndex(of: " "),
                  Int(line[..<space]) == value, let startedAt = Int64(line[line.index(after: space)...]) else {
                throw BenchError("the \(arguments[1]) ping child stopped at round \(value)")
            }
            let arrivedAt = arrivals.wait(for: value, seconds: options.lostAfter)
            guard value > warmup else { continue }
            if let arrivedAt { latencies.append(Double(arrivedAt - startedAt)) } else { lost += 1 }
        }
        guard try child.wait() == 0 else { throw BenchError("the \(arguments[1]) ping child failed") }
        guard latencies.count * 2 >= options.crossProcessRounds else {
            throw BenchError("\(arguments[1]): only \(latencies.count) of \(options.crossProcessRounds) changes arrived")
        }
        return Latencies(median: median(latencies), p99: percentile(latencies, 99), lost: lost)
    }

    /// The child: opens the store (ours) or the schema (GSettings), says "ready", then for each
    /// number N read from standard input changes `ping` to N durably and prints "N <when it
    /// started>" (wall-clock nanoseconds, comparable between processes).
    static func child(arguments: [String]) throws {
        let change: (Int) throws -> Void
        switch arguments.first {
        case "ours":
            guard arguments.count == 2 else { throw BenchError("child-ping ours ROOT") }
            let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: arguments[1])
            change = { value in
                store.set(value, forKey: "ping")
                try store.flush()
            }
        case "gsettings":
            let settings = try withGLibError { bench_settings_open(GSettingsPeer.pingSchema, $0, $1) }
            change = { value in
                guard bench_settings_set(settings, GSettingsPeer.pingKey, Int64(value)) != 0 else { throw BenchError("GSettings refused ping") }
                bench_settings_sync()
                bench_settings_drain()
            }
        default:
            throw BenchError("child-ping ours ROOT | child-ping gsettings")
        }
        say("ready")
        while let line = readLine() {
            guard let value = Int(line) else { throw BenchError("child-ping: not a number: \(line)") }
            let startedAt = wallClockNanoseconds()
            try change(value)
            say("\(value) \(startedAt)")
        }
    }
}

/// One line to standard output, unbuffered: the parent waits for it.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// When each value arrived, written by the listener and waited for by the rounds.
final class ArrivalLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var times: [Int: Int64] = [:]

    func record(_ value: Int, at time: Int64) {
        condition.lock()
        if times[value] == nil { times[value] = time }
        condition.broadcast()
        condition.unlock()
    }

    /// When `value` arrived, waiting for it up to `seconds`; nil if it has not by then.
    func wait(for value: Int, seconds: Double) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while times[value] == nil, condition.wait(until: deadline) {}
        return times[value]
    }
}
