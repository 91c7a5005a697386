import Foundation
import RizqPrefs

/// `startup`: what a process that opens a suite of `size` keys and reads one key costs, whole —
/// from `posix_spawn` to its exit, as a CLI tool or a short-lived service pays it — against the
/// floor of issue 39: the same program starting, reading the same file and parsing it (the
/// `open` workload's parse floor, simdjson into a `Dictionary`) and exiting.
///
/// Every contender is a run of one binary (`StartupProbe`, built by scripts/bench, which passes its
/// path in `RIZQ_BENCH_STARTUP_PROBE`: release, the Swift runtime linked as `swift build` links an
/// app's, where RizqBench is linked as the installed binaries are), so they start the same runtime and
/// libraries and differ only in what they do before they exit: ours opens the suite with
/// ``SuiteStore`` (its default: the file watched for other processes' changes) and reads the key;
/// the floor parses the file; the start-up floor does nothing (what starting this program costs
/// before any work); the peer is Foundation's `UserDefaults(suiteName:)` on the same data.
enum StartupWorkload {
    static func run(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let probe = ProcessInfo.processInfo.environment["RIZQ_BENCH_STARTUP_PROBE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (selfPath() as NSString).deletingLastPathComponent + "/StartupProbe"
        guard FileManager.default.isExecutableFile(atPath: probe) else {
            throw BenchError("startup: \(probe) is missing (scripts/bench builds it: swift build -c release --package-path Benchmarks --product StartupProbe)")
        }
        let fixture = try Fixture(home: home, name: "startup-\(size)", size: size)
        let foundation = try FoundationFixture(home: home, name: "startup-\(size)", size: size)
        let key = fixture.key(1)
        let ours = [probe, "ours", home.prefsRoot, BenchHome.appID, "startup-\(size)", key]
        let floor = [probe, "floor", fixture.ours.location.path, "\(size)", key]
        var sampler = options.quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 41, warmup: 3)
        sampler.oursOnly = options.oursOnly
        let medians = try sampler.medians([
            Contender("ours") { try timedRun(ours, printing: "\(fixture.index(1))") },
            Contender("floor") { try timedRun(floor, printing: nil) },
            Contender("start-up floor") { try timedRun([probe, "nothing"], printing: "") },
            .peer("foundation") { try timedRun([probe, "foundation", foundation.suite, key], printing: "\(fixture.index(1))") },
        ])
        var result = BenchResult(workload: "startup", size: size, ours: medians.of("ours"), unit: "ns")
        result.floor("the same program started, reading + parsing the file (simdjson + Dictionary), exiting", medians.of("floor"))
        result.floor("the same program started and exiting, doing nothing", medians.of("start-up floor"))
        result.peer("Foundation.UserDefaults", "foundation", in: medians)
        return result
    }

    /// Wall-clock nanoseconds from spawning `command` to reaping it; a failure, or output other
    /// than `expected` (the value read; `nil`: anything, as the floor prints the key's place in
    /// the file, which holds no values), is an error.
    private static func timedRun(_ command: [String], printing expected: String?) throws -> Double {
        var outcome: (status: Int32, output: Data) = (0, Data())
        let elapsed = try elapsedNanoseconds {
            outcome = try spawnAndWait(command[0], Array(command.dropFirst()))
        }
        let printed = String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .newlines)
        guard outcome.status == 0, expected == nil || printed == expected else {
            throw BenchError("\(command.joined(separator: " ")) exited with status \(outcome.status), printing '\(printed)' (expected '\(expected ?? "anything")')")
        }
        return elapsed
    }
}
