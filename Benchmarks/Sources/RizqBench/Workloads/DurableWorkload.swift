import Foundation
import RizqPrefs

/// `set-durable`: one set, then a durable write, per operation — a setting changed and saved at
/// once. Ours: `set` + `flush()`; GSettings: `g_settings_set_int64` + `g_settings_sync()`;
/// Foundation: `set` + `synchronize()`. Floor: the durable write of the bytes our flush wrote
/// (our one set costs well under a microsecond of it).
enum SetDurableWorkload {
    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "set-durable-\(size)", size: size)
        let disk = try DurableWriteFloor(home: home, suitePath: fixture.ours.location.path)
        let operations = options.durableOperations
        var round = 0
        var contenders = [
            Contender("ours") {
                round += 1
                return try elapsedNanoseconds {
                    for step in 0..<operations {
                        fixture.ours.set(step &+ round, forKey: fixture.key(step))
                        try fixture.ours.flush()
                    }
                } / Double(operations)
            },
            Contender("floor") {
                let bytes = try DurableWriteFloor.bytes(of: fixture.ours.location.path)
                var total = 0.0
                for _ in 0..<operations { total += try disk.write(bytes) }
                return total / Double(operations)
            },
        ]
        contenders += SetWorkload.peers("set-durable", size: size, home: home, options: options)
        let medians = try options.durableSampler.medians(contenders)
        var result = BenchResult(workload: "set-durable", size: size, ours: medians.of("ours"))
        result.floor("durable write of the file", medians.of("floor"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        addGSettings(&result, size: size, medians)
        return result
    }

    /// The Foundation peer, in its process: `set` + `synchronize()`, per operation.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "set-durable-\(size)", size: size)
        let operations = options.durableOperations
        var round = 0
        return {
            round += 1
            return elapsedNanoseconds {
                for step in 0..<operations {
                    fixture.defaults.set(step &+ round, forKey: fixture.key(step))
                    fixture.defaults.synchronize()
                }
            } / Double(operations)
        }
    }

    /// The GSettings peer, in its process: `g_settings_set_int64` + `g_settings_sync()`, per operation.
    static func gsettingsPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let gsettings = try GSettingsSuite(size: size, filled: true, home: home)
        let operations = options.durableOperations
        var round = 0
        return {
            round += 1
            return try gsettings.durableWrites(operations, round: round)
        }
    }
}

/// `flush-1000`: `flush()` after 1,000 values changed (the sets are not timed). Floor: the
/// durable write of the bytes it wrote. Peer: Foundation's `synchronize()` after the same sets.
/// (GSettings starts writing at each set, so it has no flush of its own to time.)
enum FlushWorkload {
    static let changes = 1_000

    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "flush-\(size)", size: size)
        let disk = try DurableWriteFloor(home: home, suitePath: fixture.ours.location.path)
        var round = 0
        var contenders = [
            Contender("ours") {
                round += 1
                for step in 0..<changes { fixture.ours.set(step &+ round, forKey: fixture.key(step)) }
                return try elapsedNanoseconds { try fixture.ours.flush() }
            },
            Contender("floor") {
                try disk.write(try DurableWriteFloor.bytes(of: fixture.ours.location.path))
            },
        ]
        if let foundation = options.peerProcess("flush", size: size, peer: "foundation", home: home) {
            contenders.append(.peer("foundation", foundation))
        }
        let medians = try options.durableSampler.medians(contenders)
        var result = BenchResult(workload: "flush-1000", size: size, ours: medians.of("ours"), unit: "ns")
        result.floor("durable write of the file", medians.of("floor"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        return result
    }

    /// The Foundation peer, in its process: the same 1,000 sets (untimed), then `synchronize()`.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "flush-\(size)", size: size)
        var round = 0
        return {
            round += 1
            for step in 0..<changes { fixture.defaults.set(step &+ round, forKey: fixture.key(step)) }
            return elapsedNanoseconds { fixture.defaults.synchronize() }
        }
    }
}

/// `bulk`: `writes` sets into an empty suite, then one durable write; the whole run. Floor:
/// the same inserts into an empty `Dictionary<String, Int>` plus the durable write of the file
/// our flush wrote.
enum BulkWorkload {
    static func run(home: BenchHome, options: Options) throws -> BenchResult {
        let writes = options.writes
        let keys = Fixture.keys(writes)
        var round = 0
        var lastFile: String?
        var contenders = [
            Contender("ours") {
                round += 1
                let store = try SuiteStore(suite: "bulk-\(round)", appID: BenchHome.appID, root: home.prefsRoot)
                lastFile = store.location.path
                return try elapsedNanoseconds {
                    for (index, key) in keys.enumerated() { store.set(index, forKey: key) }
                    try store.flush()
                }
            },
            Contender("floor") {
                guard let lastFile else { throw BenchError("bulk: no file to measure the floor with") }
                let disk = try DurableWriteFloor(home: home, suitePath: lastFile)
                let bytes = try DurableWriteFloor.bytes(of: lastFile)
                var dictionary: [String: Int] = [:]
                let inserts = elapsedNanoseconds {
                    for (index, key) in keys.enumerated() { dictionary[key] = index }
                }
                blackHole(dictionary.count)
                return inserts + (try disk.write(bytes))
            },
        ]
        contenders += SetWorkload.peers("bulk", size: writes, home: home, options: options)
        let medians = try options.durableSampler.medians(contenders)
        var result = BenchResult(workload: "bulk", size: writes, ours: medians.of("ours"), unit: "ns")
        result.floor("Dictionary inserts + durable write of the file", medians.of("floor"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        addGSettings(&result, size: writes, medians)
        return result
    }

    /// The Foundation peer, in its process: the same sets into a new suite, and `synchronize()`.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let keys = Fixture.keys(size)
        var round = 0
        return {
            round += 1
            guard let defaults = UserDefaults(suiteName: "bench.bulk-\(round)") else { throw BenchError("Foundation refused a suite") }
            return elapsedNanoseconds {
                for (index, key) in keys.enumerated() { defaults.set(index, forKey: key) }
                defaults.synchronize()
            }
        }
    }

    /// The GSettings peer, in its process: the same sets into a fresh, empty schema each sample
    /// (emptied outside the timing), and `g_settings_sync()`.
    static func gsettingsPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        return {
            try GSettingsSuite(size: size, filled: false, home: home).writes(size, round: 0, synced: true) * Double(size)
        }
    }
}
