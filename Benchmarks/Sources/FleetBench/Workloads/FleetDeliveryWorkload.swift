import Configuration
import Foundation
import Logging
import PostgresNIO
import RizqFleet
import RizqPrefs
import Synchronization
import SystemPackage

/// `fleet-delivery`: a change set on one host, until each of 20 watcher processes (each a
/// fleet suite with its own cache and listening connection) sees it in its cache — against
/// the floor, a bare `NOTIFY` → `LISTEN` round trip to 20 listener processes (postgres-nio,
/// no fleet code), round by round, interleaved. Every delivery is a sample (20 per round):
/// median and p99. The peer: swift-configuration's `ReloadingFileProvider` delivering the same
/// change written to its JSON file (one watch, its poll interval as configured), read through
/// `watchSnapshot`, as `mount-swap`'s peer is: through `watchInt(forKey:default:)` the same
/// provider never delivered a change within 30 s here (every full run until 2026-11-30 reported
/// the peer n/a), while the snapshots arrived a poll after each replace.
enum FleetDeliveryWorkload {
    static let watchers = 20

    static func run(server: BenchServer, home: String, quick: Bool) async throws -> BenchResult {
        let rounds = quick ? 5 : 100
        let warmup = quick ? 1 : 5
        let suite = "bench-delivery-\(UUID().uuidString.prefix(6).lowercased())"
        let environment = ["PGPASSWORD": server.password]
        let writer = try FleetSuite(
            suite, engine: try PostgresFleetEngine(url: server.url, environment: environment),
            options: FleetOptions(cache: FleetCacheLocation(suiteName: "fleet.writer", appID: "rizq.bench", root: home), origin: "bench-writer"))
        try await writer.synchronize()
        progress("starting \(watchers) fleet watchers and \(watchers) bare listeners")
        var ours: [BenchChild] = []
        var bare: [BenchChild] = []
        defer { for child in ours + bare { child.stop() } }
        for index in 0..<watchers {
            ours.append(try BenchChild(["child-watch", server.url, suite, home + "/watcher-\(index)", "watcher-\(index)"], environment: environment))
            bare.append(try BenchChild(["child-listen", "bench_floor_channel"], environment: environment))
        }
        for child in ours + bare { _ = try child.waitFor("ready", timeout: 120) }
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(host: server.host, port: server.port, username: server.user, password: server.password, database: server.database, tls: .disable),
            id: 2, logger: Logger(label: "bench"))
        defer { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }

        var oursSamples: [Double] = [], floorSamples: [Double] = []
        var lost = 0
        for round in 0..<(warmup + rounds) {
            let sent = wallClockNanoseconds()
            try await writer.set(.int(round), forKey: "d")
            let oursRound = collect(ours, round: round, sent: sent)
            let notified = wallClockNanoseconds()
            try await connection.query("SELECT pg_notify('bench_floor_channel', \(String(round)))", logger: Logger(label: "bench"))
            let floorRound = collect(bare, round: round, sent: notified)
            guard round >= warmup else { continue }
            oursSamples += oursRound.samples
            floorSamples += floorRound.samples
            lost += oursRound.lost
        }
        var result = BenchResult(workload: "fleet-delivery", size: watchers, ours: median(oursSamples), unit: "ns", oursP99: percentile(oursSamples, 99))
        result.lost = lost
        result.floor("bare NOTIFY → LISTEN round trip to \(watchers) listeners (postgres-nio)", median(floorSamples))
        result.floors.append(BenchResult.Figure(
            name: "bare NOTIFY → LISTEN, p99", ns: percentile(floorSamples, 99), ratio: percentile(oursSamples, 99) / percentile(floorSamples, 99)))
        let peerName = "swift-configuration ReloadingFileProvider (poll 1 s; default 15 s)"
        if let peer = try await reloadingFilePeer(home: home, rounds: quick ? 3 : 20) {
            result.peer(peerName, peer.median, p99: peer.p99)
        } else {
            result.peer(peerName, missing: "its watch did not deliver a change within 30 s")
        }
        return result
    }

    /// Each child's line for `round` ("VALUE WALLNS"), as latencies from `sent`.
    private static func collect(_ children: [BenchChild], round: Int, sent: Int64) -> (samples: [Double], lost: Int) {
        var samples: [Double] = []
        var lost = 0
        for child in children {
            var arrival: Int64?
            while let line = child.next(timeout: 5) {
                let parts = line.split(separator: " ")
                if parts.count == 2, Int(parts[0]) == round, let at = Int64(parts[1]) {
                    arrival = at
                    break
                }
            }
            if let arrival { samples.append(Double(arrival - sent)) } else { lost += 1 }
        }
        return (samples, lost)
    }

    /// The peer: the same change written to a JSON file that swift-configuration's reloading
    /// file provider polls (once a second here; its default is every 15 s), until its watch
    /// yields it. Each file gets a modification time a second later than the one before (the
    /// provider compares times; two writes within one second would otherwise look the same), and
    /// every wait is bounded: `nil` when a change did not arrive within 30 s.
    private static func reloadingFilePeer(home: String, rounds: Int) async throws -> (median: Double, p99: Double)? {
        let path = home + "/peer-config.json"
        try Data(#"{"d": -1}"#.utf8).write(to: URL(fileURLWithPath: path))
        let provider = try await ReloadingFileProvider<JSONSnapshot>(filePath: FilePath(path), pollInterval: .seconds(1))
        let running = Task { try await provider.run() }
        defer { running.cancel() }
        let reader = ConfigReader(provider: provider)
        let received = PeerArrivals()
        let watching = Task {
            try await reader.watchSnapshot { snapshots in
                for await snapshot in snapshots {
                    let at = wallClockNanoseconds()
                    if let value = snapshot.int(forKey: "d") { received.add(value, at: at) }
                }
            }
        }
        defer { watching.cancel() }
        /// When `value` arrived, waiting at most 30 s (6,000 checks 5 ms apart).
        func arrival(of value: Int) async throws -> Int64? {
            for _ in 0..<6_000 {
                if let at = received.arrival(of: value) { return at }
                try await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }
        guard try await arrival(of: -1) != nil else { return nil }  // the current value
        let start = Date()
        var samples: [Double] = []
        for round in 0..<rounds {
            let temporary = path + ".tmp"
            try Data(#"{"d": \#(round)}"#.utf8).write(to: URL(fileURLWithPath: temporary))
            try FileManager.default.setAttributes([.modificationDate: start.addingTimeInterval(Double(round + 1))], ofItemAtPath: temporary)
            let sent = wallClockNanoseconds()
            guard rename(temporary, path) == 0 else { throw FleetBenchError("cannot replace \(path)") }
            guard let at = try await arrival(of: round) else { return nil }
            samples.append(Double(at - sent))
        }
        return (median(samples), percentile(samples, 99))
    }
}

/// The child modes the delivery workload starts.
enum DeliveryChildren {
    /// A fleet watcher: prints "ready" once live, then "VALUE WALLNS" for each new value of "d".
    static func watch(url: String, suite: String, root: String, origin: String) async throws {
        let fleet = try FleetSuite(
            suite, engine: try PostgresFleetEngine(url: url),
            options: FleetOptions(cache: FleetCacheLocation(suiteName: "fleet.watch", appID: "rizq.bench", root: root), origin: origin))
        let changes = fleet.changes(forKey: "d")
        Task { try await fleet.run() }
        for await status in fleet.statusUpdates() where status.isLive { break }
        say("ready")
        for await value in changes {
            guard case .int(let round)? = value else { continue }
            say("\(round) \(wallClockNanoseconds())")
        }
    }

    /// A bare listener: prints "ready" once listening, then "PAYLOAD WALLNS" per notification.
    static func listen(channel: String) async throws {
        let environment = ProcessInfo.processInfo.environment
        let server = try BenchServer(environment: environment)
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(host: server.host, port: server.port, username: server.user, password: server.password, database: server.database, tls: .disable),
            id: 3, logger: Logger(label: "bench"))
        try await connection.listen(on: channel) { notifications in
            say("ready")
            for try await notification in notifications {
                say("\(notification.payload) \(wallClockNanoseconds())")
            }
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// The values the peer's watch yielded, with when each arrived (shared with its watching task).
private final class PeerArrivals: Sendable {
    private let list = Mutex<[(value: Int, at: Int64)]>([])

    func add(_ value: Int, at: Int64) {
        list.withLock { $0.append((value, at)) }
    }

    func arrival(of value: Int) -> Int64? {
        list.withLock { $0.first { $0.value == value }?.at }
    }
}
