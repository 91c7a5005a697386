import CBenchGLib
import Foundation
import RizqPrefs

/// `cross-process`: from a child process starting to change a value (ours: `set` + `flush()`;
/// GSettings: `g_settings_set_int64` + `g_settings_sync()`) to this process being told (ours: the
/// key's change stream yields it; GSettings: its `changed::ping` signal runs). Median and p99.
///
/// Floor (issue 28): the same delivery done bare, in the same run, interleaved with ours change
/// by change — a child that durably replaces a file of the same bytes as ours (temporary file,
/// `write`, `fsync`, `rename`, `fsync` of the folder: the steps of our flush, through
/// ``DurableWriteFloor``), and in this process an ``InotifyWaiter`` that reads the new file when
/// its rename arrives.
///
/// The rounds are paced by the arrivals, not by sleeps: this process asks a child for the
/// next value only once the last one arrived (or was given up on after `Options.lostAfter`).
enum CrossProcessWorkload {
    static let suite = "group.com.rizq.bench"
    /// The floor's file, in a folder of its own beside the suites' (``floorFolder(home:)``).
    static let floorFileName = "ping.json"

    struct Latencies {
        var median: Double
        var p99: Double
        var lost: Int
    }

    static func run(home: BenchHome, options: Options) throws -> BenchResult {
        let (ours, floor) = try measureOursAndFloor(home: home, options: options)
        var result = BenchResult(workload: "cross-process", size: 1, ours: ours.median, unit: "ns", oursP99: ours.p99)
        result.lost = ours.lost
        // The median and the p99 each against the floor's own (as fleet-delivery's floors).
        result.floors.append(BenchResult.Figure(
            name: floorName, ns: floor.median, ratio: ours.median / floor.median, p99Ns: floor.p99, lost: floor.lost))
        result.floors.append(BenchResult.Figure(name: floorName + ", p99", ns: floor.p99, ratio: ours.p99 / floor.p99))
        // GSettings' listener and its pinging child run from a process of their own (its
        // line: "MEDIAN P99 LOST"), after ours and the floor.
        if let gsettings = options.peerProcess("cross-process", size: 1, peer: "gsettings", home: home) {
            do {
                let figures = try gsettings.sampleLine().split(separator: " ").compactMap { Double($0) }
                guard figures.count == 3 else { throw BenchError("the GSettings peer reported '\(figures)'") }
                result.peer("GSettings (dconf)", figures[0], p99: figures[1], lost: Int(figures[2]))
            } catch {
                result.peer("GSettings (dconf)", failed: "\(error)")
            }
            gsettings.stop()
        }
        return result
    }

    /// The GSettings peer, in its process: one "sample" is the whole measurement (a listener
    /// here, a child changing the key), its line "MEDIAN P99 LOST".
    static func gsettingsPeer(options: Options) throws -> () throws -> String {
        return {
            let latencies = try measureGSettings(options: options)
            return "\(latencies.median) \(latencies.p99) \(latencies.lost)"
        }
    }

    /// The floor's name in the report (scripts/bench-report finds its p99 by the ", p99" ending).
    static let floorName = "durable replace → bare inotify wait + read, in a second process"

    static func floorFolder(home: BenchHome) -> String { home.path + "/cross-process-floor" }

    /// Ours and the floor, round by round in turn (each round's first alternating), so that both
    /// meet the same disk and the same load.
    private static func measureOursAndFloor(home: BenchHome, options: Options) throws -> (ours: Latencies, floor: Latencies) {
        let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: home.prefsRoot)
        let oursArrivals = ArrivalLog()
        // Subscribed here, before the child starts; the stream is read on a task of its own.
        let stream = store.changes(forKey: "ping", as: Int.self)
        let listener = Task.detached {
            for await value in stream {
                if let value { oursArrivals.record(value, at: wallClockNanoseconds()) }
            }
        }
        defer { listener.cancel() }

        let folder = floorFolder(home: home)
        let writer = try DurableWriteFloor(folder: folder, name: floorFileName)
        try writer.checkSameFileSystem(as: (store.location.path as NSString).deletingLastPathComponent)
        let floorArrivals = ArrivalLog()
        let waiter = try InotifyWaiter(folder: folder, fileName: floorFileName, arrivals: floorArrivals)
        let latencies = try rounds([
            (["child-ping", "ours", home.prefsRoot], oursArrivals),
            (["child-ping", "floor", folder], floorArrivals),
        ], options: options)
        try waiter.stop()
        // The floor wrote the very bytes ours did (its last value is ours's last value).
        let oursBytes = FileManager.default.contents(atPath: store.location.path)
        let floorBytes = FileManager.default.contents(atPath: writer.target)
        guard let oursBytes, oursBytes == floorBytes else {
            throw BenchError("the cross-process floor's file (\(floorBytes?.count ?? 0) bytes) is not ours (\(oursBytes?.count ?? 0) bytes): "
                + "update floorFileBytes(_:) in CrossProcessWorkload.swift to write what our flush writes")
        }
        return (latencies[0], latencies[1])
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
        return try rounds([(["child-ping", "gsettings"], arrivals)], options: options)[0]
    }

    /// One child in the rounds: what it is, and what arrived of its changes.
    private struct Pinger {
        let what: String
        let child: ChildProcess
        let arrivals: ArrivalLog
        var latencies: [Double] = []
        var lost = 0
    }

    /// Drives the children (`child-ping …` arguments, each with the log its arrivals go to)
    /// through the warm-up and measured rounds, one change of each per round, each round's first
    /// alternating; the warm-up also covers a listener's subscription being set up
    /// asynchronously (GSettings' is). Latencies in the children's order.
    private static func rounds(_ sides: [(arguments: [String], arrivals: ArrivalLog)], options: Options) throws -> [Latencies] {
        var pingers: [Pinger] = []
        for (arguments, arrivals) in sides {
            let child = try ChildProcess(selfPath(), arguments)
            guard child.readLine() == "ready" else { throw BenchError("the \(arguments[1]) ping child did not start") }
            pingers.append(Pinger(what: arguments[1], child: child, arrivals: arrivals))
        }
        let warmup = options.crossProcessWarmup
        for value in 1...(warmup + options.crossProcessRounds) {
            let order = value % 2 == 0 ? Array(pingers.indices) : Array(pingers.indices.reversed())
            for index in order {
                let pinger = pingers[index]
                try pinger.child.send("\(value)")
                guard let line = pinger.child.readLine(), let space = line.firstIndex(of: " "),
                      Int(line[..<space]) == value, let startedAt = Int64(line[line.index(after: space)...]) else {
                    throw BenchError("the \(pinger.what) ping child stopped at round \(value)")
                }
                let arrivedAt = pinger.arrivals.wait(for: value, seconds: options.lostAfter)
                guard value > warmup else { continue }
                if let arrivedAt { pingers[index].latencies.append(Double(arrivedAt - startedAt)) } else { pingers[index].lost += 1 }
            }
        }
        return try pingers.map { pinger in
            guard try pinger.child.wait() == 0 else { throw BenchError("the \(pinger.what) ping child failed") }
            guard pinger.latencies.count * 2 >= options.crossProcessRounds else {
                throw BenchError("\(pinger.what): only \(pinger.latencies.count) of \(options.crossProcessRounds) changes arrived")
            }
            return Latencies(median: median(pinger.latencies), p99: percentile(pinger.latencies, 99), lost: pinger.lost)
        }
    }

    /// The child: opens the store (ours), the schema (GSettings) or the floor's folder (floor),
    /// says "ready", then for each number N read from standard input changes `ping` to N
    /// durably and prints "N <when it started>" (wall-clock nanoseconds, comparable between
    /// processes). The floor replaces its file with the bytes our flush writes for `ping` = N.
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
        case "floor":
            guard arguments.count == 2 else { throw BenchError("child-ping floor FOLDER") }
            let writer = try DurableWriteFloor(folder: arguments[1], name: floorFileName)
            change = { value in _ = try writer.write(floorFileBytes(value)) }
        default:
            throw BenchError("child-ping ours ROOT | child-ping gsettings | child-ping floor FOLDER")
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

/// What our flush writes for a suite holding `ping` = `value` alone (FileFormat.md: one key per
/// line, two-space indent, a newline at the end); the run checks it against ours's file.
private func floorFileBytes(_ value: Int) -> [UInt8] {
    Array("{\n  \"ping\": \(value)\n}\n".utf8)
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
