import CSimdjsonFloor
import Foundation

/// The parse floor of `open` (issue 28): what any reader of a suite file must do before its
/// first lookup, with the fastest JSON parser we found — `open` + `fstat` + a fresh buffer +
/// `read` + `close` of the file, simdjson (Debian's libsimdjson-dev, `Sources/CSimdjsonFloor`)
/// parsing those bytes and visiting every value (numbers parsed, strings unescaped, the whole
/// text validated), and every key of the top-level object inserted into a Swift
/// `Dictionary<String, Int>` made at its final size (each key's value is its member's index),
/// then one lookup in it (ours reads one key after opening).
///
/// What it leaves out, and ours pays: values kept as typed values (ours keeps a `PrefValue`
/// per key; here an `Int`), and freeing the buffer (after the timing). The parser is made once
/// and reused, as simdjson asks: its buffers are sized by a first, untimed parse.
///
/// Swift's `Dictionary<String, Int>` is most of this floor at 10,000 keys and more (about 40 ns
/// a key at 10,000, 60 at 100,000: `String` hashing and, at 100,000, cache misses), more than
/// the parse (about 8 ns a key) — and ours, which fills a table of its own, can be faster. So
/// the same floor without the table (`buildsTable: false`: the keys made as `String`s and
/// dropped) is measured too, as the parse alone.
///
/// simdjson's on-demand front end (the default) and its DOM were both tried on the suites of
/// the bench; on-demand was the faster (``Mode``). `RIZQ_BENCH_SIMDJSON=dom` measures the DOM.
final class ParseFloor {
    enum Mode: String {
        case onDemand = "on-demand"
        case dom = "DOM"

        var c: rizq_simdjson_mode { self == .dom ? RIZQ_SIMDJSON_DOM : RIZQ_SIMDJSON_ON_DEMAND }

        /// On-demand, unless `RIZQ_BENCH_SIMDJSON=dom`.
        static var chosen: Mode { ProcessInfo.processInfo.environment["RIZQ_BENCH_SIMDJSON"] == "dom" ? .dom : .onDemand }
    }

    let path: String
    let mode: Mode
    /// Whether the keys go into a `Dictionary` (the floor of issue 28) or are only made.
    let buildsTable: Bool
    private let parser: OpaquePointer

    /// The floor's name in the report (scripts/bench-report finds the floor of issue 28 by its
    /// start, "read + parse", and its end, "+ Dictionary").
    var name: String {
        "read + parse (simdjson \(mode.rawValue), \(String(cString: rizq_simdjson_active_implementation())))"
            + (buildsTable ? " + Dictionary" : ", keys as Strings, no table")
    }

    /// A floor for the suite file at `path`, holding `size` keys. `sizesBuffers: false` skips
    /// the first, untimed parse (and its check): for a process that parses the file once
    /// (StartupProbe's floor), as a process that starts and reads a suite does.
    init(path: String, size: Int, mode: Mode = .chosen, buildsTable: Bool = true, sizesBuffers: Bool = true) throws {
        guard let parser = rizq_simdjson_parser_create() else { throw BenchError("simdjson: cannot make a parser (out of memory)") }
        self.parser = parser
        self.path = path
        self.mode = mode
        self.buildsTable = buildsTable
        guard sizesBuffers else { return }
        // Sizes the parser's buffers, and checks that it reads the file as ours does.
        let (_, table, keys) = try open(lookingUp: "key-0")
        guard keys == size, !buildsTable || (table.count == size && table["key-0"] != nil) else {
            throw BenchError("the parse floor read \(keys) keys (\(table.count) distinct) from \(path), which holds \(size)")
        }
    }

    deinit {
        rizq_simdjson_parser_destroy(parser)
    }

    /// Nanoseconds to read and parse the file into a dictionary and look `key` up in it (or,
    /// without the table, to make every key a `String`); the dictionary (so that its release
    /// falls after the timing) and the number of keys read.
    func open(lookingUp key: String) throws -> (nanoseconds: Double, table: [String: Int], keys: Int) {
        let padding = rizq_simdjson_padding()
        var table: [String: Int] = [:]
        var buffer: UnsafeMutableRawPointer?
        defer { buffer?.deallocate() }
        var failure: String?
        var checksum: UInt64 = 0
        var keys = 0
        let elapsed = elapsedNanoseconds {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { failure = "open: errno \(errno)"; return }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { failure = "fstat: errno \(errno)"; close(descriptor); return }
            let size = Int(info.st_size)
            // simdjson reads up to `padding` bytes past the end (never used as text).
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: size + padding, alignment: 64)
            buffer = bytes
            let total = readFully(descriptor, into: bytes, count: size)
            close(descriptor)
            guard total == size else { failure = "read \(total) of \(size) bytes"; return }
            let count = rizq_simdjson_parse(parser, mode.c, bytes.assumingMemoryBound(to: UInt8.self), size, &checksum)
            guard count >= 0, let members = rizq_simdjson_members(parser) else {
                failure = "simdjson: \(String(cString: rizq_simdjson_error(parser)))"
                return
            }
            keys = count
            guard buildsTable else {
                for index in 0..<count {
                    let member = members[index]
                    let name = String(decoding: UnsafeRawBufferPointer(start: member.key, count: member.key_length), as: UTF8.self)
                    checksum &+= UInt64(name.utf8.count)
                }
                return
            }
            table = Dictionary(minimumCapacity: count)
            for index in 0..<count {
                let member = members[index]
                let name = String(decoding: UnsafeRawBufferPointer(start: member.key, count: member.key_length), as: UTF8.self)
                table[name] = index
            }
            checksum &+= UInt64(table[key] ?? 0)
        }
        if let failure { throw BenchError("parse floor, \(path): \(failure)") }
        blackHole(Int(truncatingIfNeeded: checksum))
        return (elapsed, table, keys)
    }
}
