import Foundation
import RizqPrefs

/// `set`: `writes` sets of `Int` keys into a suite of `size` keys, then one durable write (ours:
/// `flush()`; Foundation: `synchronize()`; GSettings: `g_settings_sync()`), all timed, per set.
/// Floor: the same updates of a `Dictionary<String, Int>` plus the durable write of the bytes our
/// flush wrote. The peers run in processes of their own (``PeerProcess``).
///
/// Every store does the same writes per sample: Foundation keeps sets in memory and writes the
/// whole file on `synchronize()`, so fewer writes per sample would charge it more per set.
enum SetWorkload {
    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "set-\(size)", size: size)
        let memory = MemoryFloor(fixture: fixture)
        let disk = try DurableWriteFloor(home: home, suitePath: fixture.ours.location.path)
        let writes = options.writes
        var round = 0
        var contenders = [
            Contender("ours") {
                round += 1
                return try elapsedNanoseconds {
                    for step in 0..<writes { fixture.ours.set(step &+ round, forKey: fixture.key(step)) }
                    try fixture.ours.flush()
                } / Double(writes)
            },
            Contender("floor") {
                round += 1
                let bytes = try DurableWriteFloor.bytes(of: fixture.ours.location.path)
                let updates = memory.dictionaryWrites(writes, round: round) * Double(writes)
                return (updates + (try disk.write(bytes))) / Double(writes)
            },
        ]
        contenders += peers("set", size: size, home: home, options: options)
        let medians = try options.slowDurableSampler.medians(contenders)
        var result = BenchResult(workload: "set", size: size, ours: medians.of("ours"))
        result.floor("Dictionary updates + durable write of the file", medians.of("floor"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        addGSettings(&result, size: size, medians)
        return result
    }

    /// The Foundation and GSettings peers of `workload` at `size`, each in its process.
    static func peers(_ workload: String, size: Int, home: BenchHome, options: Options) -> [Contender] {
        var contenders: [Contender] = []
        if let foundation = options.peerProcess(workload, size: size, peer: "foundation", home: home) {
            contenders.append(.peer("foundation", foundation))
        }
        if GSettingsPeer.unavailable(size: size) == nil, let gsettings = options.peerProcess(workload, size: size, peer: "gsettings", home: home) {
            contenders.append(.peer("gsettings", gsettings))
        }
        return contenders
    }

    /// The Foundation peer, in its process: the same sets, then `synchronize()`, per set.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "set-\(size)", size: size)
        let writes = options.writes
        var round = 0
        return {
            round += 1
            return elapsedNanoseconds {
                for step in 0..<writes { fixture.defaults.set(step &+ round, forKey: fixture.key(step)) }
                fixture.defaults.synchronize()
            } / Double(writes)
        }
    }

    /// The GSettings peer, in its process: the same sets, then `g_settings_sync()`, per set.
    static func gsettingsPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let gsettings = try GSettingsSuite(size: size, filled: true, home: home)
        let writes = options.writes
        var round = 0
        return {
            round += 1
            return try gsettings.writes(writes, round: round, synced: true)
        }
    }
}

/// `set-memory`: the same `writes` sets without the durable write, per set — what a `set`
/// costs the caller (ours writes the file on its own queue afterwards). Timed alone, this must
/// not grow with the suite (issue 16: within 2× from 100 to 100,000 keys). Floor: a
/// `Dictionary<String, Int>` update. The writes each store then owes are made outside the timing.
enum SetMemoryWorkload {
    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "set-memory-\(size)", size: size)
        let memory = MemoryFloor(fixture: fixture)
        let writes = options.writes
        var round = 0
        var contenders = [
            Contender("ours") {
                round += 1
                let elapsed = elapsedNanoseconds {
                    for step in 0..<writes { fixture.ours.set(step &+ round, forKey: fixture.key(step)) }
                }
                try fixture.ours.flush()
                return elapsed / Double(writes)
            },
            Contender("dictionary") {
                round += 1
                return memory.dictionaryWrites(writes, round: round)
            },
        ]
        contenders += SetWorkload.peers("set-memory", size: size, home: home, options: options)
        let medians = try options.slowSampler.medians(contenders)
        var result = BenchResult(workload: "set-memory", size: size, ours: medians.of("ours"))
        result.floor("Dictionary<String, Int> update", medians.of("dictionary"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        addGSettings(&result, size: size, medians)
        return result
    }

    /// The Foundation peer, in its process: the same sets, `synchronize()` outside the timing.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "set-memory-\(size)", size: size)
        let writes = options.writes
        var round = 0
        return {
            round += 1
            let elapsed = elapsedNanoseconds {
                for step in 0..<writes { fixture.defaults.set(step &+ round, forKey: fixture.key(step)) }
            }
            fixture.defaults.synchronize()
            return elapsed / Double(writes)
        }
    }

    /// The GSettings peer, in its process: the same sets, `g_settings_sync()` outside the timing.
    static func gsettingsPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let gsettings = try GSettingsSuite(size: size, filled: true, home: home)
        let writes = options.writes
        var round = 0
        return {
            round += 1
            return try gsettings.writes(writes, round: round, synced: false)
        }
    }
}
