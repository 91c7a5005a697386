import Foundation
import RizqPrefs

/// `migrate`: what a new process pays to open a suite of `size` keys written by an older version
/// of the app, with a schema whose stages change every value: `SuiteStore(suite:schema:)` on a
/// version-0 file whose `key-i` hold `"i"` as text, migrated to version 2 — stage 0 → 1 renames a
/// key, stage 1 → 2 (custom) stores every `key-i` as an `Int` — under the file lock, in one
/// durable replace, then the first read. Each sample opens a fresh copy of the old file (the copy
/// is not timed).
///
/// Floor: reading the old file's bytes and durably writing the migrated file's bytes
/// (`DurableWriteFloor`), with no parsing, no stages and no encoding — what any migration of
/// this file costs on this disk. Peer: Foundation's `UserDefaults` migrated by hand, as an app
/// without schemas would (the domain read, every value converted, `setPersistentDomain`, a
/// version key, `synchronize()`), at 100 keys only: replacing a 10,000-key domain took
/// Foundation a minute a sample here, a 100,000-key one minutes.
///
/// A second floor adds the work no migration can skip: the old file read and parsed into a
/// `Dictionary` (``ParseFloor``, the floor of `open`), the stages' own steps on that dictionary
/// (the custom stage's key made and looked up, and its entry replaced, for every key; the rename),
/// and the same durable write of the migrated bytes. It still leaves out the text-to-number
/// conversion of each value and the encoding of the new file, which ours pays.
enum MigrateWorkload {
    static let suite = "migrate"

    static func schema(size: Int) throws -> SuiteMigrations {
        try SuiteMigrations(version: 2, stages: [
            .lightweight(from: 0, to: 1, [.rename("old_name", to: "new_name")]),
            .custom(from: 1, to: 2) { batch in
                for index in 0..<size {
                    let key = "key-\(index)"
                    if let text = batch.value(forKey: key, as: String.self), let number = Int(text) {
                        try batch.set(number, forKey: key)
                    }
                }
            },
        ])
    }

    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let schema = try schema(size: size)
        // The old file, as an app before the schema wrote it.
        let template = home.path + "/migrate-template/\(size)"
        try FileManager.default.createDirectory(atPath: template + "/apps/" + BenchHome.appID, withIntermediateDirectories: true)
        let old = try SuiteStore(suite: suite, appID: BenchHome.appID, root: template)
        old.batch { batch in
            for index in 0..<size { try? batch.set(String(index), forKey: "key-\(index)") }
            try? batch.set("x", forKey: "old_name")
        }
        try old.flush()
        let oldPath = old.location.path
        let oldBytes = try DurableWriteFloor.bytes(of: oldPath)

        // The migrated file's bytes, for the floor, from one migration outside the timing.
        let probe = try copy(oldPath, round: 0, size: size, home: home)
        let migrated = try SuiteStore(suite: suite, appID: BenchHome.appID, root: probe, migrations: schema)
        guard migrated.schemaVersion == 2, migrated.value(forKey: "key-1", as: Int.self) == 1 else {
            throw BenchError("migrate: the probe migration did not give version 2 with Int values")
        }
        let migratedBytes = try DurableWriteFloor.bytes(of: migrated.location.path)
        let floor = try DurableWriteFloor(home: home, suitePath: oldPath)
        // The old file holds `size` keys and `old_name`.
        let parseFloor = try ParseFloor(path: oldPath, size: size + 1)

        var round = 0
        var sink = 0
        var contenders = [
            Contender("ours") {
                round += 1
                let root = try copy(oldPath, round: round, size: size, home: home)
                return try elapsedNanoseconds {
                    let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: root, migrations: schema)
                    sink &+= store.value(forKey: "key-1", as: Int.self) ?? 0
                }
            },
            Contender("floor") {
                var total = 0
                let read = elapsedNanoseconds { total = readAll(oldPath, into: oldBytes.count) }
                guard total == oldBytes.count else { throw BenchError("read \(total) of \(oldBytes.count) bytes of \(oldPath)") }
                return read + (try floor.write(migratedBytes))
            },
            Contender("floor-with-parse") {
                let parse = try parseFloor.open(lookingUp: "key-1")
                var table = parse.table
                let stages = elapsedNanoseconds {
                    if let renamed = table.removeValue(forKey: "old_name") { table["new_name"] = renamed }
                    for index in 0..<size {
                        let key = "key-\(index)"
                        if let member = table[key] { table[key] = member &+ 1 }
                    }
                }
                guard table.count == size + 1 else { throw BenchError("migrate floor: \(table.count) keys after the stages, not \(size + 1)") }
                sink &+= table["key-1"] ?? 0
                return parse.nanoseconds + stages + (try floor.write(migratedBytes))
            },
        ]
        if size <= foundationLimit, let foundation = options.peerProcess("migrate", size: size, peer: "foundation", home: home) {
            contenders.append(.peer("foundation", foundation))
        }
        let medians = try options.slowSampler.medians(contenders)
        blackHole(sink)
        var result = BenchResult(workload: "migrate", size: size, ours: medians.of("ours"), unit: "ns")
        result.floor("read of the old file + durable write of the migrated one", medians.of("floor"))
        result.floor(parseFloor.name + " + the stages on it + durable write of the migrated one", medians.of("floor-with-parse"))
        if size <= foundationLimit {
            result.peer("Foundation.UserDefaults (migrated by hand)", "foundation", in: medians)
        } else {
            result.peer("Foundation.UserDefaults (migrated by hand)", missing: "setPersistentDomain of \(size) keys takes a minute or more")
        }
        return result
    }

    /// Foundation's `UserDefaults` is migrated at up to this many keys (see the type's notes).
    static let foundationLimit = 100

    /// The Foundation peer, in its process: a fresh copy of the old plist (not timed), opened and
    /// migrated by hand.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let plist = try foundationTemplate(size: size, home: home)
        var round = 0
        var sink = 0
        return {
            round += 1
            let name = "bench.migrate-copy-\(size)-\(round)"
            try FileManager.default.copyItem(atPath: plist, toPath: home.foundationFolder + "/" + name + ".plist")
            let elapsed = try elapsedNanoseconds {
                guard let defaults = UserDefaults(suiteName: name) else { throw BenchError("Foundation refused a suite") }
                sink &+= try migrateByHand(defaults, name: name, size: size)
            }
            blackHole(sink)
            return elapsed
        }
    }

    /// A fresh root holding a copy of the old file; returns the root.
    private static func copy(_ oldPath: String, round: Int, size: Int, home: BenchHome) throws -> String {
        let root = home.path + "/migrate-copies/\(size)-\(round)"
        try FileManager.default.createDirectory(atPath: root + "/apps/" + BenchHome.appID, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: oldPath, toPath: root + "/apps/" + BenchHome.appID + "/\(suite).json")
        return root
    }

    private static func readAll(_ path: String, into count: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: count)
        var total = 0
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        buffer.withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { total = readFully(descriptor, into: base, count: bytes.count) }
        }
        close(descriptor)
        return total
    }

    /// The old suite as Foundation's plist (written directly, as `FoundationFixture` does).
    private static func foundationTemplate(size: Int, home: BenchHome) throws -> String {
        var domain: [String: Any] = ["old_name": "x"]
        for index in 0..<size { domain["key-\(index)"] = String(index) }
        let plist = try PropertyListSerialization.data(fromPropertyList: domain, format: .xml, options: 0)
        let path = home.path + "/migrate-template/foundation-\(size).plist"
        try FileManager.default.createDirectory(atPath: home.path + "/migrate-template", withIntermediateDirectories: true)
        try plist.write(to: URL(fileURLWithPath: path))
        try FileManager.default.createDirectory(atPath: home.foundationFolder, withIntermediateDirectories: true)
        return path
    }

    /// The same migration, as an app using `UserDefaults` would write it.
    private static func migrateByHand(_ defaults: UserDefaults, name: String, size: Int) throws -> Int {
        guard defaults.integer(forKey: "schema_version") < 2 else { return 0 }
        var domain = defaults.persistentDomain(forName: name) ?? [:]
        if let value = domain.removeValue(forKey: "old_name") { domain["new_name"] = value }
        for index in 0..<size {
            let key = "key-\(index)"
            if let text = domain[key] as? String, let number = Int(text) { domain[key] = number }
        }
        domain["schema_version"] = 2
        defaults.setPersistentDomain(domain, forName: name)
        guard defaults.synchronize() else { throw BenchError("Foundation could not write \(name)") }
        return defaults.integer(forKey: "key-1")
    }
}
