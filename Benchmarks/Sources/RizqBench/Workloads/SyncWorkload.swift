import Foundation
import RizqPrefs
import RizqSync

/// Device sync between two real Syncthing instances on loopback (`scripts/with-syncthing --serve`,
/// the same pair for every figure of the run):
///
/// - `sync-latency`: from `DeviceSync.set` on one device to the `.merged` event of the other
///   device's change stream, alternating directions; against the floor, a plain file replaced
///   (temporary file and rename) on one side until it arrives on the other
///   (`scripts/syncthing-latency --mode replace --from alternate --json`) — what Syncthing alone
///   takes. Two rows: the default configuration (Syncthing's watcher notices the replica, after its
///   `fsWatcherDelayS`), and with Syncthing's REST API configured (each publish asks it to rescan
///   the replica at once). Target (issue 27): ≤ 1.2× the floor.
/// - `sync-merge`: one round (`syncNow`) of a new device that merges another device's replica of
///   N keys into an empty suite (the whole initial sync: parse, merge, one commit, state, publish),
///   at N = 100, 1,000, 10,000; against the floor of reading the replica's bytes and parsing them
///   (Foundation's JSONSerialization).
enum SyncWorkload {
    static let app = "com.rizq.bench.sync"

    // MARK: Latency

    static func latency(home: BenchHome, options: Options) throws -> [BenchResult] {
        let repository = ProcessInfo.processInfo.environment["RIZQ_BENCH_REPO"] ?? FileManager.default.currentDirectoryPath
        let pair = try SyncthingServer(repository: repository)
        defer { pair.stop() }
        let rounds = options.quick ? 2 : 20
        let floor = try pair.plainFileLatency(rounds: rounds)
        var results: [BenchResult] = []
        for nudged in [false, true] {
            let (median, p95) = try measure(home: home, pair: pair, rounds: rounds, nudged: nudged)
            var result = BenchResult(workload: nudged ? "sync-latency-rest" : "sync-latency", size: 1, ours: median, unit: "ns", oursP99: p95)
            result.floor("plain file change (Syncthing)", floor)
            results.append(result)
        }
        return results
    }

    private static func measure(home: BenchHome, pair: SyncthingServer, rounds: Int, nudged: Bool) throws -> (Double, Double) {
        let run = nudged ? "rest" : "marker"
        let folderA = pair.folder("A") + "/" + run
        let folderB = pair.folder("B") + "/" + run
        try FileManager.default.createDirectory(atPath: folderA, withIntermediateDirectories: true)
        let check: (String) -> SyncEngineCheck = { side in nudged ? .syncthing(home: pair.home(side)) : .syncthingMarker }
        let storeA = try SuiteStore(suite: app, appID: app, root: home.path + "/sync-\(run)-a")
        let storeB = try SuiteStore(suite: app, appID: app, root: home.path + "/sync-\(run)-b")
        let syncA = try storeA.enableDeviceSync(
            DeviceSyncConfiguration(folder: folderA, keys: ["ping"], isFirstDevice: true, engineCheck: check("A")), replicaID: "bench-a-\(run)")
        // Scanned at once (Syncthing's watcher would notice it only after its delay, and a
        // wait for "in sync" before that returns at once).
        try pair.scan("A")
        try pair.waitSynced()
        guard pair.exists(folderB) else { throw BenchError("the folder \(folderB) did not reach B") }
        let syncB = try storeB.enableDeviceSync(
            DeviceSyncConfiguration(folder: folderB, keys: ["ping"], isFirstDevice: true, engineCheck: check("B")), replicaID: "bench-b-\(run)")
        let arrivalsA = ArrivalLog()
        let arrivalsB = ArrivalLog()
        let listeners = [(syncA, arrivalsA, storeA), (syncB, arrivalsB, storeB)].map { sync, log, store in
            let events = sync.events
            return Task.detached {
                for await event in events {
                    if case .merged(let keys, _) = event, keys.contains("ping"), let value = store.value(forKey: "ping", as: Int.self) {
                        log.record(value, at: wallClockNanoseconds())
                    }
                }
            }
        }
        defer { for listener in listeners { listener.cancel() } }
        syncA.start()
        syncB.start()
        defer {
            syncA.stop()
            syncB.stop()
        }
        // Warm-up: both replicas published and merged once.
        try syncA.set(0, forKey: "ping")
        guard arrivalsB.wait(for: 0, seconds: 60) != nil else { throw BenchError("sync-latency: the first change did not arrive") }
        try pair.waitSynced()
        var latencies: [Double] = []
        for round in 1...rounds {
            let (sender, log) = round % 2 == 1 ? (syncB, arrivalsA) : (syncA, arrivalsB)
            let started = wallClockNanoseconds()
            try sender.set(.int(round), forKey: "ping")
            guard let arrived = log.wait(for: round, seconds: 60) else { throw BenchError("sync-latency: round \(round) did not arrive within 60 s") }
            latencies.append(Double(arrived - started))
            // As the floor's rounds do: both sides settled before the next.
            try pair.waitSynced()
        }
        return (median(latencies), percentile(latencies, 95))
    }

    // MARK: Merge cost

    static func merge(home: BenchHome, options: Options) throws -> [BenchResult] {
        let sizes = options.quick ? [100] : [100, 1_000, 10_000]
        var results: [BenchResult] = []
        for size in sizes {
            let folder = home.path + "/merge-\(size)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let keys = (0..<size).map { "key-\($0)" }
            // The other device: every key set once, published.
            let source = try SuiteStore(suite: app, appID: app, root: home.path + "/merge-\(size)-source")
            let sourceSync = try source.enableDeviceSync(
                DeviceSyncConfiguration(folder: folder, keys: keys, isFirstDevice: true, engineCheck: .none), replicaID: "source")
            source.batch { batch in
                for (index, key) in keys.enumerated() { try? batch.set("value \(index)", forKey: key) }
            }
            try sourceSync.syncNow()
            let replica = folder + "/replica-source.json"
            var sample = 0
            let sampler = options.slowSampler
            let figures = try sampler.medians([
                Contender("ours") {
                    sample += 1
                    let store = try SuiteStore(suite: app, appID: app, root: home.path + "/merge-\(size)-fresh-\(sample)")
                    let sync = try store.enableDeviceSync(
                        DeviceSyncConfiguration(folder: folder, keys: keys, engineCheck: .none), replicaID: "fresh-\(sample)")
                    let nanoseconds = try elapsedNanoseconds { try sync.syncNow() }
                    guard store.entries.count == size else { throw BenchError("sync-merge: \(store.entries.count) of \(size) keys merged") }
                    try? FileManager.default.removeItem(atPath: folder + "/replica-fresh-\(sample).json")
                    return nanoseconds
                },
                Contender("floor") {
                    try elapsedNanoseconds {
                        guard let data = FileManager.default.contents(atPath: replica), try JSONSerialization.jsonObject(with: data) is [String: Any] else {
                            throw BenchError("sync-merge: the replica cannot be read")
                        }
                    }
                },
            ])
            var result = BenchResult(workload: "sync-merge", size: size, ours: figures.of("ours"), unit: "ns")
            result.floor("read the replica, parse it with JSONSerialization", figures.of("floor"))
            results.append(result)
        }
        return results
    }
}

/// `scripts/with-syncthing --serve`: two Syncthing instances for the run, stopped when its
/// standard input closes.
final class SyncthingServer {
    private let process: Process
    private let input = Pipe()
    private let environment: [String: String]
    private let repository: String

    init(repository: String) throws {
        self.repository = repository
        process = Process()
        process.executableURL = URL(fileURLWithPath: repository + "/scripts/with-syncthing")
        process.arguments = ["--serve"]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        var environment = ProcessInfo.processInfo.environment
        var pending = Data()
        var ready = false
        while !ready {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending += chunk
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[(newline + 1)...])
                if line == "READY" {
                    ready = true
                } else if let equals = line.firstIndex(of: "=") {
                    environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
            }
        }
        guard ready else { throw BenchError("scripts/with-syncthing --serve did not start") }
        self.environment = environment
    }

    func folder(_ side: String) -> String { environment["RIZQ_SYNC_\(side)_FOLDER"] ?? "" }
    func home(_ side: String) -> String { environment["RIZQ_SYNC_\(side)_HOME"] ?? "" }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// `side` rescans its folder now (`syncthing-ctl X scan`; returns when the scan is done).
    func scan(_ side: String) throws {
        _ = try run(environment["RIZQ_SYNC_CTL"] ?? repository + "/scripts/syncthing-ctl", [side, "scan"])
    }

    /// Both folders idle and in sync (`syncthing-ctl wait-synced`).
    func waitSynced() throws {
        _ = try run(environment["RIZQ_SYNC_CTL"] ?? repository + "/scripts/syncthing-ctl", ["wait-synced"])
    }

    /// The median of `scripts/syncthing-latency --mode replace --from alternate`, in nanoseconds.
    func plainFileLatency(rounds: Int) throws -> Double {
        let output = try run(repository + "/scripts/syncthing-latency", ["--rounds", "\(rounds)", "--mode", "replace", "--from", "alternate", "--json"])
        guard let object = try JSONSerialization.jsonObject(with: output) as? [String: Any], let median = object["median_ms"] as? Double else {
            throw BenchError("syncthing-latency printed no median")
        }
        return median * 1_000_000
    }

    private func run(_ path: String, _ arguments: [String]) throws -> Data {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: path)
        child.arguments = arguments
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.standardError
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw BenchError("\(path) failed (exit \(child.terminationStatus))") }
        return data
    }
}
