import Foundation
import RizqPrefs

/// Issue 47's rows: what an administrator's layers cost a read, and how fast a lock reaches a
/// running app.
///
/// - `layered-get` (per suite size): a typed read over the same scattered walk as `get`, of a
///   suite under a managed file, a defaults file and an installed schema (each naming a tenth
///   of the keys, the schema checking a range). Floor: today's read, the same suite with no
///   layer file (`get`'s own path), in the same run.
/// - `lock-delivery`: an administrator's managed file durably replaced (temporary file, fsync,
///   rename: the steps of a configuration tool), until this process's change stream of the
///   locked key yields the new value. Floor: a bare ``InotifyWaiter`` on a file replaced the
///   same way, reading it when its rename arrives; rounds alternate, each paced by its arrival.
enum LayerWorkload {
    /// Points this process's XDG variables at `config` (and the schema folder at `data`) while
    /// `body` opens its suites: a suite reads its layer folders when it is first opened.
    static func withLayerFolders<T>(config: String, data: String, _ body: () throws -> T) rethrows -> T {
        let saved: [(String, String?)] = ["XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "XDG_DATA_HOME"].map { name in
            (name, getenv(name).map { String(cString: $0) })
        }
        setenv("XDG_CONFIG_DIRS", config, 1)
        setenv("XDG_DATA_DIRS", data, 1)
        setenv("XDG_DATA_HOME", data + "/home", 1)
        defer { for (name, value) in saved { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
        return try body()
    }

    /// Writes `bytes` at `path` as a configuration tool does: a temporary file beside it,
    /// `fsync`, `rename`.
    static func place(_ bytes: [UInt8], at path: String) throws {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot create \(temporary): errno \(errno)") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else { throw BenchError("cannot write \(path): errno \(errno)") }
    }

    // MARK: layered-get

    static func runGet(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let base = home.path + "/layers-\(size)"
        let config = base + "/etc/xdg", data = base + "/usr/share", empty = base + "/none"
        for folder in [config, data, empty] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let plainName = "layered-get-plain-\(size)", layeredName = "layered-get-\(size)"
        let keys = Fixture.keys(size)
        let tenth = max(1, size / 10)
        func object(_ members: [(String, Int)]) -> [UInt8] {
            Array(("{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}").utf8)
        }
        let app = "apps/\(BenchHome.appID)/\(layeredName)"
        for layer in ["managed", "defaults"] {
            try FileManager.default.createDirectory(atPath: "\(config)/rizq-prefs/\(layer)/apps/\(BenchHome.appID)", withIntermediateDirectories: true)
        }
        // A tenth of the keys forced, another tenth with an administrator's default (under the
        // user's values, which every key has), another tenth described by the schema with a range.
        try place(object(keys[0..<tenth].map { ($0, 1) }), at: "\(config)/rizq-prefs/managed/\(app).json")
        try place(object(keys[tenth..<min(size, 2 * tenth)].map { ($0, 2) }), at: "\(config)/rizq-prefs/defaults/\(app).json")
        let schema = PrefSchema(properties: Dictionary(uniqueKeysWithValues: keys[min(size, 2 * tenth)..<min(size, 3 * tenth)].map {
            ($0, PrefSchema.Property(types: [.integer], defaultValue: .int(0), minimum: .int(0), maximum: .int(Int.max)))
        }))
        try FileManager.default.createDirectory(atPath: "\(data)/rizq-prefs/schemas/apps/\(BenchHome.appID)", withIntermediateDirectories: true)
        try place(Array(schema.jsonData()), at: "\(data)/rizq-prefs/schemas/\(app).schema.json")

        let plain = try withLayerFolders(config: empty, data: empty) { try Fixture(home: home, name: plainName, size: size) }
        let layered = try withLayerFolders(config: config, data: data) { try Fixture(home: home, name: layeredName, size: size) }
        guard layered.ours.objectIsForced(forKey: keys[0]), !plain.ours.objectIsForced(forKey: keys[0]) else {
            throw BenchError("layered-get: the managed file did not take effect (run rizq-prefs doctor with XDG_CONFIG_DIRS=\(config))")
        }
        let reads = options.reads
        func reading(_ fixture: Fixture) -> () -> Double {
            {
                var sink = 0
                let elapsed = elapsedNanoseconds {
                    for step in 0..<reads { sink &+= fixture.ours.value(forKey: fixture.key(step), as: Int.self) ?? 0 }
                }
                blackHole(sink)
                return elapsed / Double(reads)
            }
        }
        let medians = try options.sampler.medians([Contender("ours", reading(layered)), Contender("today", reading(plain))])
        var result = BenchResult(workload: "layered-get", size: size, ours: medians.of("ours"))
        result.floor("today's get, no layer file", medians.of("today"))
        return result
    }

    // MARK: lock-delivery

    static func runDelivery(home: BenchHome, options: Options) throws -> BenchResult {
        let base = home.path + "/lock-delivery"
        let config = base + "/etc/xdg", data = base + "/usr/share"
        let suite = "lock-delivery"
        let folder = "\(config)/rizq-prefs/managed/apps/\(BenchHome.appID)"
        let floorFolder = base + "/floor"
        for path in [folder, data, floorFolder] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let store = try withLayerFolders(config: config, data: data) {
            try SuiteStore(suite: suite, appID: BenchHome.appID, root: home.prefsRoot)
        }
        let oursArrivals = ArrivalLog()
        let stream = store.changes(forKey: "lock", as: Int.self)
        let listener = Task.detached {
            for await value in stream {
                if let value { oursArrivals.record(value, at: wallClockNanoseconds()) }
            }
        }
        defer { listener.cancel() }
        let floorArrivals = ArrivalLog()
        let waiter = try InotifyWaiter(folder: floorFolder, fileName: "lock.json", arrivals: floorArrivals)
        defer { try? waiter.stop() }

        let rounds = options.crossProcessRounds, warmup = options.crossProcessWarmup
        var ours: [Double] = [], floor: [Double] = []
        var lost = (ours: 0, floor: 0)
        for round in 0..<(warmup + rounds) {
            let value = round + 1
            let text = Array("{\n  \"lock\": \(value)\n}\n".utf8)
            for first in [round % 2 == 0, round % 2 != 0] {
                let start = wallClockNanoseconds()
                if first {
                    try place(text, at: "\(folder)/\(suite).json")
                    guard let arrived = oursArrivals.wait(for: value, seconds: options.lostAfter) else {
                        if round >= warmup { lost.ours += 1 }
                        continue
                    }
                    if round >= warmup { ours.append(Double(arrived - start)) }
                } else {
                    try place(text, at: "\(floorFolder)/lock.json")
                    guard let arrived = floorArrivals.wait(for: value, seconds: options.lostAfter) else {
                        if round >= warmup { lost.floor += 1 }
                        continue
                    }
                    if round >= warmup { floor.append(Double(arrived - start)) }
                }
            }
        }
        guard !ours.isEmpty, !floor.isEmpty else { throw BenchError("lock-delivery: nothing arrived (ours lost \(lost.ours), floor lost \(lost.floor))") }
        let (oursMedian, oursP99) = (percentile(ours, 0.5), percentile(ours, 0.99))
        let (floorMedian, floorP99) = (percentile(floor, 0.5), percentile(floor, 0.99))
        var result = BenchResult(workload: "lock-delivery", size: 1, ours: oursMedian, unit: "ns", oursP99: oursP99)
        result.lost = lost.ours
        let name = "managed file replaced → bare inotify wait + read, same process"
        result.floors.append(BenchResult.Figure(name: name, ns: floorMedian, ratio: oursMedian / floorMedian, p99Ns: floorP99, lost: lost.floor))
        result.floors.append(BenchResult.Figure(name: name + ", p99", ns: floorP99, ratio: oursP99 / floorP99))
        result.peer("dconf (a changed lock)", missing: "dconf delivers a changed system lock only after 'dconf update', which writes /etc/dconf/db and signals on the system bus: not run here (root paths); docs/performance.md says more")
        return result
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
