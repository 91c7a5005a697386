import Foundation
import RizqPrefs

/// `get`: a typed read of an existing Int key.
enum GetWorkload {
    static func run(home: BenchHome, size: Int, sampler: Sampler, reads: Int) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "get-\(size)", size: size)
        var sink = 0
        let (ours, baseline) = sampler.compare(
            ours: {
                elapsedNanoseconds {
                    for step in 0..<reads { sink &+= fixture.ours.value(forKey: fixture.key(step), as: Int.self) ?? 0 }
                } / Double(reads)
            },
            baseline: {
                elapsedNanoseconds {
                    for step in 0..<reads { sink &+= fixture.foundation.integer(forKey: fixture.key(step)) }
                } / Double(reads)
            })
        if sink == 42 { print("") }  // keeps the reads from being optimized away
        return BenchResult(workload: "get", size: size, ours: ours, baseline: "Foundation.UserDefaults", baselineValue: baseline)
    }
}
