import Foundation
import Logging
import PostgresNIO
@_spi(Benchmarks) import RizqFleet
import RizqPrefs

/// `fleet-set`: a committed `FleetSuite.set` (one conditional upsert, its notification, the
/// cache) against the floor: a bare parameterised `INSERT` round trip (autocommit, so also one
/// durable commit) on a postgres-nio connection to the same server. Interleaved sample by
/// sample; each sample is `operations` calls, reported per call.
///
/// The second floor (issue 39): the engine's own write statement (`FleetBenchmarkStatements`,
/// the SQL of `PostgresFleetSQL.Write`), prepared, run bare on the same connection against a
/// suite of its own — what the server does for every committed set whatever the client: the
/// suite's revision bumped under its row lock, the conditional upsert, the `NOTIFY` queued at
/// commit, and the larger commit record. Its ratio to the first floor is what the guarantees
/// cost on the server; ours against it is what the library adds.
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
        let statementSuite = "bench-set-statement-\(getpid())"

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
        func statement() async throws -> Double {
            try await elapsed {
                for _ in 0..<operations {
                    counter += 1
                    let write = FleetBenchmarkStatements.write(
                        suite: statementSuite, key: "k\(counter % 100)", valueJSON: "\(counter)",
                        stamp: (Int64(counter), 0, "bench-floor"), lockTimeoutMilliseconds: 7_500)
                    for try await _ in try await connection.execute(write, logger: Logger(label: "bench")) {}
                }
            } / Double(operations)
        }
        _ = try await ours()
        // The statement floor's suite, registered on the bare connection once the FleetSuite's
        // first write made the tables; nobody listens on its channel (the bench's FleetSuite
        // listens on its own).
        try await connection.query(FleetBenchmarkStatements.registerSuite(statementSuite), logger: Logger(label: "bench"))
        _ = try await floor()
        _ = try await statement()
        var oursSamples: [Double] = [], floorSamples: [Double] = [], statementSamples: [Double] = []
        for _ in 0..<repetitions {
            oursSamples.append(try await ours())
            floorSamples.append(try await floor())
            statementSamples.append(try await statement())
        }
        var result = BenchResult(workload: "fleet-set", size: 1, ours: median(oursSamples))
        result.floor("bare parameterised INSERT round trip (postgres-nio)", median(floorSamples))
        result.floor(FleetSetWorkload.statementFloor, median(statementSamples))
        return result
    }

    /// The second floor's name; bench-report finds it by this prefix.
    static let statementFloor = "the write statement bare (prepared; revision, conditional upsert, NOTIFY)"
}
