import Foundation
import RizqPrefs

/// `get`: a typed read of an existing `Int` key, over a scattered walk of the suite's keys.
/// Floors: the same reads in a plain `Dictionary<String, Int>`, and one cache line per key.
/// Peers, each in a process of its own (``PeerProcess``): Foundation's `integer(forKey:)`,
/// GSettings' `g_settings_get_int64`.
enum GetWorkload {
    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "get-\(size)", size: size)
        let floor = MemoryFloor(fixture: fixture)
        let reads = options.reads
        let foundation = options.peerProcess("get", size: size, peer: "foundation", home: home)
        let gsettings = GSettingsPeer.unavailable(size: size) == nil ? options.peerProcess("get", size: size, peer: "gsettings", home: home) : nil
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
        ]
        if let foundation { contenders.append(.peer("foundation", foundation)) }
        if let gsettings { contenders.append(.peer("gsettings", gsettings)) }
        let medians = try options.sampler.medians(contenders)

        var result = BenchResult(workload: "get", size: size, ours: medians.of("ours"))
        result.floor("Dictionary<String, Int> lookup", medians.of("dictionary"))
        result.floor("one cache line per key", medians.of("line"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        addGSettings(&result, size: size, medians)
        return result
    }

    /// The Foundation peer, in its process: `integer(forKey:)` over the same walk, per read.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "get-\(size)", size: size)
        let reads = options.reads
        return {
            var sink = 0
            let elapsed = elapsedNanoseconds {
                for step in 0..<reads { sink &+= fixture.defaults.integer(forKey: fixture.key(step)) }
            }
            blackHole(sink)
            return elapsed / Double(reads)
        }
    }

    /// The GSettings peer, in its process: `g_settings_get_int64` over the same walk, per read
    /// (fewer reads a sample: one costs microseconds).
    static func gsettingsPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let gsettings = try GSettingsSuite(size: size, filled: true, home: home)
        let reads = min(options.reads, options.slowReads)
        return { gsettings.reads(reads) }
    }
}

/// Adds the GSettings peer to a row: its figure, why it failed, or why a suite of this size
/// has none. (Nothing under `--ours-only`, which runs no peer.)
func addGSettings(_ result: inout BenchResult, size: Int, _ medians: Medians) {
    if let reason = GSettingsPeer.unavailable(size: size) {
        result.peer("GSettings (dconf)", missing: reason)
    } else {
        result.peer("GSettings (dconf)", "gsettings", in: medians)
    }
}
