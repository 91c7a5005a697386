import CBenchGLib
import Foundation

/// GSettings over dconf — the desktop's own settings system, what a Linux developer would
/// otherwise pick — as a peer: schemas with the same `Int` keys as our suites (type `x`),
/// compiled into a temporary `GSETTINGS_SCHEMA_DIR`, their values kept by `dconf-service` in
/// the bench's private D-Bus session (it is D-Bus-activated there, with that session's home).
enum GSettingsPeer {
    /// dconf keeps a database as one gvdb file, rebuilt on every write, and gvdb's builder grows
    /// faster than the square of the keys in one folder: one write took 0.25 s at 10,000 keys,
    /// 1.6 s at 20,000, and ran past D-Bus's 25 s time-out at 50,000 (docs/performance.md).
    /// Larger suites are reported as not measurable.
    static let largestSuite = 10_000
    static let pingSchema = "com.rizq.bench.ping"
    static let pingKey = "ping"

    static func schemaID(size: Int) -> String { "com.rizq.bench.s\(size)" }

    /// Why GSettings has no figure for a suite of `size` keys, or nil when it has one.
    static func unavailable(size: Int) -> String? {
        size > largestSuite ? "dconf cannot hold \(size) keys in one folder: a write takes minutes" : nil
    }

    /// Writes and compiles the schemas for the given suite sizes and the cross-process key, and
    /// points GIO at them and at dconf (in the environment, which the peers' processes inherit).
    /// Nothing here touches GIO: the peers run in processes of their own
    /// (``checkBackend()`` there).
    static func install(home: BenchHome, sizes: Set<Int>) throws {
        let folder = home.path + "/gsettings-schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var xml = "<schemalist>\n"
        for size in sizes.sorted() where unavailable(size: size) == nil {
            let id = schemaID(size: size)
            xml += "  <schema id=\"\(id)\" path=\"/\(id.replacingOccurrences(of: ".", with: "/"))/\">\n"
            for index in 0..<size { xml += "    <key name=\"key-\(index)\" type=\"x\"><default>0</default></key>\n" }
            xml += "  </schema>\n"
        }
        xml += "  <schema id=\"\(pingSchema)\" path=\"/com/rizq/bench/ping/\">\n"
        xml += "    <key name=\"\(pingKey)\" type=\"x\"><default>0</default></key>\n  </schema>\n</schemalist>\n"
        try xml.write(toFile: folder + "/com.rizq.bench.gschema.xml", atomically: true, encoding: .utf8)
        let compiled = try spawnAndWait("/usr/bin/glib-compile-schemas", ["--strict", folder])
        guard compiled.status == 0 else {
            throw BenchError("glib-compile-schemas failed (status \(compiled.status)); is libglib2.0-dev-bin installed? (scripts/install-deps --bench)")
        }
        setenv("GSETTINGS_SCHEMA_DIR", folder, 1)
        setenv("GSETTINGS_BACKEND", "dconf", 1)
    }

    /// Checks that GIO's settings backend is dconf's (in a peer's process, before its first
    /// GSettings object).
    static func checkBackend() throws {
        let backend = String(cString: bench_settings_backend_name())
        guard backend == "DConfSettingsBackend" else {
            throw BenchError("GSettings uses \(backend), not dconf: install dconf-gsettings-backend and dconf-service (scripts/install-deps --bench)")
        }
    }
}

/// A GLib error message buffer for the C calls.
func withGLibError<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> T?) throws -> T {
    var buffer = [CChar](repeating: 0, count: 512)
    if let result = buffer.withUnsafeMutableBufferPointer({ body($0.baseAddress!, $0.count) }) { return result }
    throw BenchError(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// One GSettings schema of `size` keys named as the fixture's, open in this process while it
/// lives. Its values are put into dconf before it opens (with the fixture's values, when
/// `filled`) and reset after it closes, so that the next suite's writes do not carry this one's
/// keys in dconf's single database — through the `dconf` tool, because GLib aborts a process
/// whose GSettings object hears of 256 or more of its keys changed at once.
///
/// And only once dconf has announced the load: dconf-service answers a `Change` call before it
/// emits the `Notify` signal that lists the keys changed (for 10,000 keys it first sorts and
/// packs them, milliseconds), so an object opened as soon as `dconf load` returned could have
/// its match rule in place before that signal passed the bus, hear of 10,000 of its keys at
/// once, and abort the process at the next main-loop turn (`settings_backend_keys_changed:
/// assertion failed: (l < 256)`): the abort of the full run of issue 39, at `set-memory` 10,000,
/// the first workload at that size that runs GLib's main loop. ``fence()`` waits for the signal
/// to have passed. `RIZQ_BENCH_NO_DCONF_FENCE=1` leaves it out (to see the abort:
/// docs/performance.md, "GSettings as a peer").
final class GSettingsSuite {
    let size: Int
    private let folder: String
    private let settings: OpaquePointer
    /// The keys as C strings, made once: GSettings' API takes them so, as ours takes `String`.
    private let keys: [UnsafeMutablePointer<CChar>]

    init(size: Int, filled: Bool, home: BenchHome) throws {
        self.size = size
        folder = "/" + GSettingsPeer.schemaID(size: size).replacingOccurrences(of: ".", with: "/") + "/"
        try Self.dconf(["reset", "-f", folder])
        if filled {
            let file = home.path + "/gsettings-values.ini"
            var text = "[/]\n"
            for index in 0..<size { text += "key-\(index)=int64 \(index)\n" }
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            try Self.dconf(["load", folder], input: file)
            if ProcessInfo.processInfo.environment["RIZQ_BENCH_NO_DCONF_FENCE"] == nil { try Self.fence() }
        }
        settings = try withGLibError { bench_settings_open(GSettingsPeer.schemaID(size: size), $0, $1) }
        keys = (0..<size).map { strdup("key-\($0)")! }
    }

    deinit {
        bench_settings_drain()
        bench_settings_close(settings)
        for key in keys { free(key) }
        try? Self.dconf(["reset", "-f", folder])
    }

    /// Returns once dconf-service has announced every change it made before: its answer to an
    /// empty change comes after the signals of the changes it handled before.
    private static func fence() throws {
        _ = try withGLibError { bench_dconf_fence($0, $1) != 0 ? true : nil }
    }

    /// Runs the `dconf` tool (in this session: it talks to the same dconf-service).
    private static func dconf(_ arguments: [String], input: String? = nil) throws {
        let result = input.map { file in
            try? spawnAndWait("/bin/sh", ["-c", "exec /usr/bin/dconf \"$@\" < \"$0\"", file] + arguments)
        } ?? (try? spawnAndWait("/usr/bin/dconf", arguments))
        guard let result, result.status == 0 else {
            throw BenchError("dconf \(arguments.joined(separator: " ")) failed; is dconf-cli installed? (scripts/install-deps --bench)")
        }
    }

    /// The walk of `Fixture.index`, over the C keys.
    private func key(_ step: Int) -> UnsafeMutablePointer<CChar> { keys[(step &* 7919) % keys.count] }

    /// Nanoseconds per `g_settings_get_int64` over `reads` steps of the walk.
    func reads(_ reads: Int) -> Double {
        var sink: Int64 = 0
        let elapsed = elapsedNanoseconds {
            for step in 0..<reads { sink &+= bench_settings_get(settings, key(step)) }
        }
        blackHole(Int(sink))
        return elapsed / Double(reads)
    }

    /// Nanoseconds per `g_settings_set_int64` over `writes` steps, then one `g_settings_sync`
    /// inside the timing when `synced` (outside it otherwise). The notifications GLib queued for
    /// this thread's main context are run outside the timing, as an app's main loop would.
    func writes(_ writes: Int, round: Int, synced: Bool) throws -> Double {
        var refused = false
        let elapsed = elapsedNanoseconds {
            for step in 0..<writes where bench_settings_set(settings, key(step), Int64(step &+ round)) == 0 { refused = true }
            if synced { bench_settings_sync() }
        }
        if !synced { bench_settings_sync() }
        bench_settings_drain()
        if refused { throw BenchError("GSettings refused a value") }
        return elapsed / Double(writes)
    }

    /// Nanoseconds per durable set: `g_settings_set_int64` then `g_settings_sync`, `count` times.
    func durableWrites(_ count: Int, round: Int) throws -> Double {
        var refused = false
        let elapsed = elapsedNanoseconds {
            for step in 0..<count {
                if bench_settings_set(settings, key(step), Int64(step &+ round)) == 0 { refused = true }
                bench_settings_sync()
            }
        }
        bench_settings_drain()
        if refused { throw BenchError("GSettings refused a value") }
        return elapsed / Double(count)
    }
}
