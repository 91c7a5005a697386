import Foundation
import Logging
import RizqFleet
import RizqPrefs

/// `fleet-get`: a typed read from a fleet suite's cache (`fleet[key]`) against the same typed
/// read from a local suite (`store[key]`): the floor, since the cache is a local suite.
enum FleetGetWorkload {
    static func run(server: BenchServer, home: String, quick: Bool) async throws -> BenchResult {
        let reads = quick ? 1_000 : 100_000
        let local = try SuiteStore(suite: "bench-get-local", appID: "rizq.bench", root: home)
        let fleet = try FleetSuite(
            "bench-get", engine: try PostgresFleetEngine(url: server.url, environment: ["PGPASSWORD": server.password]),
            options: FleetOptions(cache: FleetCacheLocation(suiteName: "fleet.bench-get", appID: "rizq.bench", root: home), origin: "bench"))
        for index in 0..<100 {
            local.set(index, forKey: "key-\(index)")
            try await fleet.set(.int(index), forKey: "key-\(index)")
        }
        let keys = (0..<100).map { Key<Int>("key-\($0)", default: -1, store: local) }
        var sink = 0
        let sampler = quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 15, warmup: 3)
        let medians = try sampler.medians([
            Contender("ours") {
                elapsedNanoseconds { for index in 0..<reads { sink &+= fleet[keys[index % 100]] } } / Double(reads)
            },
            Contender("floor") {
                elapsedNanoseconds { for index in 0..<reads { sink &+= local[keys[index % 100]] } } / Double(reads)
            },
        ])
        if sink == 42 { progress("") }  // keeps the reads
        var result = BenchResult(workload: "fleet-get", size: 100, ours: medians.of("ours"))
        result.floor("the local suite's typed get", medians.of("floor"))
        return result
    }
}
