import Foundation
import RizqPrefs

/// `open`: what a new process pays to open an existing suite of `size` keys and read one key.
/// Both stores cache open suites for the life of a process, so each sample opens a fresh copy
/// of the file under a new name (the copy is not timed). Three floors, on the very file ours
/// opens copies of: reading the file and parsing it into a `Dictionary` (``ParseFloor``:
/// simdjson, the work any reader must do; the targets of issue 28 are against it), reading the
/// file's bytes alone (`open` + `read` + `close`, from the page cache as ours does), and the
/// first without the `Dictionary` (the keys made as `String`s and dropped: the parse alone).
enum OpenWorkload {
    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "open-\(size)", size: size)
        let parseFloor = try ParseFloor(path: fixture.ours.location.path, size: size)
        let parseOnlyFloor = try ParseFloor(path: fixture.ours.location.path, size: size, buildsTable: false)
        var round = 0
        var sink = 0
        var contenders = [
            Contender("ours") {
                round += 1
                let root = home.path + "/open-copies/\(size)-\(round)"
                try FileManager.default.createDirectory(atPath: root + "/apps/" + BenchHome.appID, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: fixture.ours.location.path, toPath: root + "/apps/" + BenchHome.appID + "/open-\(size).json")
                return try elapsedNanoseconds {
                    let store = try SuiteStore(suite: "open-\(size)", appID: BenchHome.appID, root: root)
                    sink &+= store.value(forKey: "key-1", as: Int.self) ?? 0
                }
            },
            Contender("parse floor") {
                let (elapsed, table, _) = try parseFloor.open(lookingUp: "key-1")
                sink &+= table.count
                return elapsed
            },
            Contender("parse-only floor") {
                try parseOnlyFloor.open(lookingUp: "key-1").nanoseconds
            },
            Contender("floor") {
                let path = fixture.ours.location.path
                var info = stat()
                guard stat(path, &info) == 0 else { throw BenchError("cannot stat \(path)") }
                var buffer = [UInt8](repeating: 0, count: Int(info.st_size))
                var total = 0
                let elapsed = elapsedNanoseconds {
                    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else { return }
                    buffer.withUnsafeMutableBytes { bytes in
                        if let base = bytes.baseAddress { total = readFully(descriptor, into: base, count: bytes.count) }
                    }
                    close(descriptor)
                }
                guard total == buffer.count else { throw BenchError("read \(total) of \(buffer.count) bytes of \(path)") }
                return elapsed
            },
        ]
        if let foundation = options.peerProcess("open", size: size, peer: "foundation", home: home) {
            contenders.append(.peer("foundation", foundation))
        }
        let medians = try options.slowSampler.medians(contenders)
        blackHole(sink)
        var result = BenchResult(workload: "open", size: size, ours: medians.of("ours"), unit: "ns")
        result.floor(parseFloor.name, medians.of("parse floor"))
        result.floor("read of the file", medians.of("floor"))
        result.floor(parseOnlyFloor.name, medians.of("parse-only floor"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        return result
    }

    /// The Foundation peer, in its process: `UserDefaults(suiteName:)` on a fresh copy of the
    /// plist (the copy not timed) and `integer(forKey:)`.
    static func foundationPeer(home: BenchHome, size: Int, options: Options) throws -> () throws -> Double {
        let fixture = try FoundationFixture(home: home, name: "open-\(size)", size: size)
        var round = 0
        var sink = 0
        return {
            round += 1
            let name = "bench.open-copy-\(size)-\(round)"
            try FileManager.default.copyItem(atPath: fixture.path, toPath: home.foundationFolder + "/" + name + ".plist")
            let elapsed = try elapsedNanoseconds {
                guard let defaults = UserDefaults(suiteName: name) else { throw BenchError("Foundation refused a suite") }
                sink &+= defaults.integer(forKey: "key-1")
            }
            blackHole(sink)
            return elapsed
        }
    }
}
