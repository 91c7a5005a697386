import Foundation
import RizqPrefs

/// `get`: a typed read of an existing `Int` key, over a scattered walk of the suite's keys.
/// Floors: the same reads in a plain `Dictionary<String, Int>`, and one cache line per key.
/// Peers: Foundation's `integer(forKey:)`, GSettings' `g_settings_get_int64`.
enum GetWorkload {
    static func run(home: BenchHome, size: Int, gsettings: GSettingsSuite?, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "get-\(size)", size: size)
        let floor = MemoryFloor(fixture: fixture)
        let reads = options.reads
        var contenders = [
            Contender("ours") {
                var sink = 0
                let elapsed = elapsedNanoseconds {
                    for step in 0..<reads { sink &+= fixture.ours.value(forKey: fixture.key(step), as: Int.self) ?? 0 }
                }
                blackHole(sink)
                return elapsed / Double(reads)
            },
            Contender("dictionary") { floor.dictionaryReads(reads) },
            Contender("line") { floor.lineReads(reads) },
            Contender("foundation") {
                var sink = 0
                let elapsed = elapsedNanoseconds {
                    for step in 0..<reads { sink &+= fixture.foundation.integer(forKey: fixture.key(step)) }
                }
                blackHole(sink)
                return elapsed / Double(reads)
            },
        ]
        // A GSettings read costs microseconds: fewer of them per sample, over the same walk.
        if let gsettings { contenders.append(Contender("gsettings") { gsettings.reads(min(reads, options.slowReads)) }) }
        let medians = try options.sampler.medians(contenders)

        var result = BenchResult(workload: "get", size: size, ours: medians.of("ours"))
        result.floor("Dictionary<String, Int> lookup", medians.of("dictionary"))
        result.floor("one cache line per key", medians.of("line"))
        result.peer("Foundation.UserDefaults", medians.of("foundation"))
        addGSettings(&result, gsettings, size: size, medians)
        return result
    }
}

/// Adds the GSettings peer to a row: its figure, or why a suite of this size has none.
func addGSettings(_ result: inout BenchResult, _ gsettings: GSettingsSuite?, size: Int, _ medians: [String: Double]) {
    if gsettings != nil {
        result.peer("GSettings (dconf)", medians.of("gsettings"))
    } else if let reason = GSettingsPeer.unavailable(size: size) {
        result.peer("GSettings (dconf)", missing: reason)
    }
}
