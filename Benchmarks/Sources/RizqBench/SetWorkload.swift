import Foundation
import RizqPrefs

/// `set`: writes of an Int key into a suite of `size` keys, amortized including the disk writes
/// they cause: `writes` sets over the suite's keys, then `flush()` (Foundation: `synchronize()`),
/// all inside the timing, divided by `writes`. Both stores do the same writes: Foundation here
/// keeps sets in memory and writes the whole file on `synchronize()`, so fewer writes per sample
/// would charge it more per set, and more writes less.
enum SetWorkload {
    static func run(home: BenchHome, size: Int, sampler: Sampler, writes: Int) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "set-\(size)", size: size)
        var round = 0
        let (ours, baseline) = try sampler.compare(
            ours: {
                round += 1
                return try elapsedNanoseconds {
                    for step in 0..<writes { fixture.ours.set(step &+ round, forKey: fixture.key(step)) }
                    try fixture.ours.flush()
                } / Double(writes)
            },
            baseline: {
                round += 1
                return elapsedNanoseconds {
                    for step in 0..<writes { fixture.foundation.set(step &+ round, forKey: fixture.key(step)) }
                    fixture.foundation.synchronize()
                } / Double(writes)
            })
        return BenchResult(workload: "set", size: size, ours: ours, baseline: "Foundation.UserDefaults", baselineValue: baseline)
    }
}

/// `bulk`: 10,000 `set` calls on an empty suite, then a durable flush; the whole run.
enum BulkWorkload {
    static func run(home: BenchHome, sampler: Sampler, writes: Int) throws -> BenchResult {
        var round = 0
        let (ours, baseline) = try sampler.compare(
            ours: {
                round += 1
                let store = try SuiteStore(suite: "bulk-\(round)", appID: BenchHome.appID, root: home.prefsRoot)
                return try elapsedNanoseconds {
                    for step in 0..<writes { store.set(step, forKey: "key-\(step)") }
                    try store.flush()
                }
            },
            baseline: {
                round += 1
                guard let defaults = UserDefaults(suiteName: "bench.bulk-\(round)") else { throw BenchError("Foundation refused a suite") }
                return elapsedNanoseconds {
                    for step in 0..<writes { defaults.set(step, forKey: "key-\(step)") }
                    defaults.synchronize()
                }
            })
        return BenchResult(workload: "bulk", size: writes, ours: ours, baseline: "Foundation.UserDefaults", baselineValue: baseline, unit: "ns")
    }
}
