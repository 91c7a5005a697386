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
    private let parser: OpaquePointer

    /// The floor's name in the report (scripts/bench-report finds it by its start, "read + parse").
    var name: String { "read + parse (simdjson \(mode.rawValue)) + Dictionary" }

    /// A floor for the suite file at `path`, holding `size` keys.
    init(path: String, size: Int, mode: Mode = .chosen) throws {
        guard let parser = rizq_simdjson_parser_create() else { throw BenchError("simdjson: cannot make a parser (out of memory)") }
        self.parser = parser
        self.path = path
        self.mode = mode
        // Sizes the parser's buffers, and checks that it reads the file as ours does.
        let (_, table, _) = try open(lookingUp: "key-0")
        guard table.count == size else {
            throw BenchError("the parse floor read \(table.count) keys from \(path), which holds \(size)")
        }
    }

    deinit {
        rizq_simdjson_parser_destroy(parser)
    }

    /// Which simdjson implementations run: the one chosen for this processor (stage 1, in the
    /// library) and the one the on-demand front end was compiled for (in Sources/CSimdjsonFloor).
    static var implementations: String {
        "\(String(cString: rizq_simdjson_active_implementation())) (on-demand front end: \(String(cString: rizq_simdjson_builtin_implementation())))"
    }

    /// Nanoseconds to read and parse the file into a dictionary and look `key` up in it; the
    /// dictionary (so that its release falls after the timing) and what the lookup found.
    func open(lookingUp key: String) throws -> (nanoseconds: Double, table: [String: Int], found: Int?) {
        let padding = rizq_simdjson_padding()
        var table: [String: Int] = [:]
        var buffer: UnsafeMutableRawPointer?
        defer { buffer?.deallocate() }
        var failure: String?
        var checksum: UInt64 = 0
        var found: Int?
        let elapsed = elapsedNanoseconds {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { failure = "open: errno \(errno)"; return }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { failure = "fstat: errno \(errno)"; close(descriptor); return }
            let size = Int(info.st_size)
            // simdjson reads up to `padding` bytes past the end (never used as text).
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: size + padding, alignment: 64)
            buffer = bytes
            var total = 0
            while total < size {
                let count = read(descriptor, bytes + total, size - total)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                total += count
            }
            close(descriptor)
            guard total == size else { failure = "read \(total) of \(size) bytes"; return }
            let count = rizq_simdjson_parse(parser, mode.c, bytes.assumingMemoryBound(to: UInt8.self), size, &checksum)
            guard count >= 0, let members = rizq_simdjson_members(parser) else {
                failure = "simdjson: \(String(cString: rizq_simdjson_error(parser)))"
                return
            }
            table = Dictionary(minimumCapacity: count)
            for index in 0..<count {
                let member = members[index]
                let name = String(decoding: UnsafeRawBufferPointer(start: member.key, count: member.key_length), as: UTF8.self)
                table[name] = index
            }
            found = table[key]
        }
        if let failure { throw BenchError("parse floor, \(path): \(failure)") }
        blackHole(Int(truncatingIfNeeded: checksum))
        return (elapsed, table, found)
    }
}
