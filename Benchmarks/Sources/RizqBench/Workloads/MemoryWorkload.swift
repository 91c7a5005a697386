import Foundation
import RizqPrefs

/// `memory`: peak resident memory of a fresh process that opens a suite of `size` keys and
/// reads one, against the same for Foundation. Each runs in a child process of its own.
enum MemoryWorkload {
    static func run(home: BenchHome, size: Int) throws -> BenchResult {
        _ = try Fixture(home: home, name: "memory-\(size)", size: size)
        let ours = try peakInChild(["child-memory", "ours", home.prefsRoot, "memory-\(size)"])
        var result = BenchResult(workload: "memory", size: size, ours: ours, unit: "bytes")
        // The peer's failure is its own (its column), as in every workload.
        do {
            let foundation = try FoundationFixture(home: home, name: "memory-\(size)", size: size)
            result.peer("Foundation.UserDefaults", try peakInChild(["child-memory", "foundation", home.prefsRoot, foundation.suite]))
        } catch {
            result.peer("Foundation.UserDefaults", failed: "\(error)")
        }
        return result
    }

    private static func peakInChild(_ arguments: [String]) throws -> Double {
        let (status, output) = try spawnAndWait(selfPath(), arguments)
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0, let bytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("the memory child (\(arguments[1])) ended with status \(status), printing '\(text)'")
        }
        return bytes
    }

    /// The child: opens the suite, reads a key, prints its peak RSS in bytes.
    static func child(kind: String, root: String, suite: String) throws {
        var sink = 0
        if kind == "ours" {
            let store = try SuiteStore(suite: suite, appID: BenchHome.appID, root: root)
            sink = store.value(forKey: "key-1", as: Int.self) ?? 0
        } else {
            sink = UserDefaults(suiteName: suite)?.integer(forKey: "key-1") ?? 0
        }
        guard sink == 1 else { throw BenchError("the suite did not hold key-1") }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        print(kilobytes * 1024)
    }
}
