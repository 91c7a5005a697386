import Foundation
import Logging
import PostgresNIO
import RizqFleet
import RizqPrefs

/// `fleet-set`: a committed `FleetSuite.set` (one conditional upsert, its notification, the
/// cache) against the floor: a bare parameterised `INSERT` round trip (autocommit, so also one
/// durable commit) on a postgres-nio connection to the same server. Interleaved sample by
/// sample; each sample is `operations` calls, reported per call.
enum FleetSetWorkload {
    static func run(server: BenchServer, home: String, quick: Bool) async throws -> BenchResult {
        let operations = quick ? 20 : 200
        let repetitions = quick ? 3 : 15
        let fleet = try FleetSuite(
            "bench-set", engine: try PostgresFleetEngine(url: server.url, environment: ["PGPASSWORD": server.password]),
            options: FleetOptions(cache: FleetCacheLocation(suiteName: "fleet.bench-set", appID: "rizq.bench", root: home), origin: "bench"))
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(host: server.host, port: server.port, username: server.user, password: server.password, database: server.database, tls: .disable),
            id: 1, logger: Logger(label: "bench"))
        defer { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
        try await connection.query("CREATE TABLE IF NOT EXISTS bench_floor (k text PRIMARY KEY, v text)", logger: Logger(label: "bench"))
        try await connection.query("TRUNCATE bench_floor", logger: Logger(label: "bench"))

        var counter = 0
        func ours() async throws -> Double {
            try await elapsed {
                for _ in 0..<operations {
                    counter += 1
                    try await fleet.set(.int(counter), forKey: "k\(counter % 100)")
                }
            } / Double(operations)
        }
        func floor() async throws -> Double {
            try await elapsed {
                for _ in 0..<operations {
                    counter += 1
                    let key = "f\(counter)", value = "\(counter)"
                    try await connection.query("INSERT INTO bench_floor (k, v) VALUES (\(key), \(value))", logger: Logger(label: "bench"))
                }
            } / Double(operations)
        }
        _ = try await ours()
        _ = try await floor()
        var oursSamples: [Double] = [], floorSamples: [Double] = []
        for _ in 0..<repetitions {
            oursSamples.append(try await ours())
            floorSamples.append(try await floor())
        }
        var result = BenchResult(workload: "fleet-set", size: 1, ours: median(oursSamples))
        result.floor("bare parameterised INSERT round trip (postgres-nio)", median(floorSamples))
        return result
    }
}
