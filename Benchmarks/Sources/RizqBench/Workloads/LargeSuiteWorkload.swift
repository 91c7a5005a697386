import Foundation
import RizqPrefs

/// `large`: a fresh process opens a suite of 1,000,000 keys (1,000 with `--quick`) and reads
/// every key (issue 18, scale). Two rows: the time of open + reading every key, beside the
/// floor of reading the file's bytes; and the process's peak resident memory, beside the
/// file's size. No peer: Foundation takes minutes to fill a suite this large.
enum LargeSuiteWorkload {
    static func size(quick: Bool) -> Int { quick ? 1_000 : 1_000_000 }

    static func run(home: BenchHome, options: Options) throws -> [BenchResult] {
        let size = size(quick: options.quick)
        let suite = "large-\(size)"
        let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: home.prefsRoot)
        store.batch { batch in
            for index in 0..<size { try? batch.set(index, forKey: "key-\(index)") }
        }
        try store.flush()
        let path = store.location.path
        let (status, output) = try spawnAndWait(selfPath(), ["child-large", home.prefsRoot, suite, "\(size)"])
        let figures = String(decoding: output, as: UTF8.self).split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard status == 0, figures.count == 3 else { throw BenchError("large child printed '\(String(decoding: output, as: UTF8.self))'") }
        var time = BenchResult(workload: "large-open-read-all", size: size, ours: figures[0], unit: "ns")
        time.floor("read of the file", figures[1])
        var memory = BenchResult(workload: "large-memory", size: size, ours: figures[2], unit: "bytes")
        var info = stat()
        guard stat(path, &info) == 0 else { throw BenchError("cannot stat \(path)") }
        memory.floor("the file's size", Double(info.st_size))
        return [time, memory]
    }

    /// The child: reads the file's bytes (the floor), then opens the suite and reads every
    /// key; prints "OPEN_AND_READ_NS FILE_READ_NS PEAK_RSS_BYTES".
    static func child(root: String, suite: String, size: Int) throws {
        let path = try SuiteLocation(suiteName: suite, appID: BenchHome.appID, root: root).path
        let floor = try elapsedNanoseconds {
            guard FileManager.default.contents(atPath: path) != nil else { throw BenchError("cannot read \(path)") }
        }
        var sum = 0
        let elapsed = try elapsedNanoseconds {
            let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: root)
            for index in 0..<size { sum &+= store.value(forKey: "key-\(index)", as: Int.self) ?? 0 }
        }
        guard sum == size * (size - 1) / 2 else { throw BenchError("the suite did not hold every key") }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        print("\(elapsed) \(floor) \(kilobytes * 1024)")
    }
}
