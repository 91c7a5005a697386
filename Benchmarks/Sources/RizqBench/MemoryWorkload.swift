import Foundation
import RizqPrefs

/// `memory`: peak resident memory of a fresh process that opens a suite of `size` keys and
/// reads one, against the same for Foundation. Each runs in a child process of its own.
enum MemoryWorkload {
    static func run(home: BenchHome, size: Int) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "memory-\(size)", size: size)
        let ours = try peakInChild(["child-memory", "ours", home.prefsRoot, "memory-\(size)"])
        let baseline = try peakInChild(["child-memory", "foundation", home.prefsRoot, fixture.foundationSuite])
        return BenchResult(workload: "memory", size: size, ours: ours, baseline: "Foundation.UserDefaults", baselineValue: baseline, unit: "bytes")
    }

    private static func peakInChild(_ arguments: [String]) throws -> Double {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard let bytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("memory child printed '\(text)'")
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
