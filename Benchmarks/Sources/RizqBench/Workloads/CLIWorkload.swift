import Foundation
import RizqPrefs

/// `cli-get` and `cli-set`: the command-line tool as a shell script meets it — one whole process
/// per call, from `posix_spawn` to its exit — on a suite of ten keys, beside `gsettings get` and
/// `gsettings set` on a key of the bench's own schema (dconf in the bench's D-Bus session), and
/// the floor: starting and reaping `/bin/true`, which is what any process costs.
///
/// Ours is the binary `RIZQ_BENCH_CLI` names: scripts/bench builds it as scripts/install does
/// (release, the Swift runtime linked in), so this is the installed tool's start-up.
enum CLIWorkload {
    static let keys = 10

    static func run(_ workload: String, home: BenchHome, options: Options, cli: String?) throws -> BenchResult {
        guard let cli, !cli.isEmpty else { throw BenchError("\(workload): set RIZQ_BENCH_CLI to a rizq-prefs binary (scripts/bench does)") }
        let store = try SuiteStore(suite: BenchHome.appID, appID: BenchHome.appID, root: home.prefsRoot)
        for index in 0..<keys { store.set(index, forKey: "key-\(index)") }
        try store.flush()
        setenv("RIZQ_PREFS_HOME", home.prefsRoot, 1)
        let reading = workload == "cli-get"
        var value = 0
        let ours = reading
            ? [cli, "get", "--app", BenchHome.appID, "key-3"]
            : [cli, "set", "--app", BenchHome.appID, "key-3", "0", "--int"]
        let gsettings = reading
            ? ["/usr/bin/gsettings", "get", GSettingsPeer.pingSchema, GSettingsPeer.pingKey]
            : ["/usr/bin/gsettings", "set", GSettingsPeer.pingSchema, GSettingsPeer.pingKey, "0"]
        var sampler = options.quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 101, warmup: 5)
        sampler.oursOnly = options.oursOnly
        let medians = try sampler.medians([
            Contender("ours") {
                value += 1
                return try timedRun(reading ? ours : ours.dropLast(2) + ["\(value)", "--int"])
            },
            Contender("floor") { try timedRun(["/bin/true"]) },
            .peer("gsettings") {
                value += 1
                return try timedRun(reading ? gsettings : gsettings.dropLast() + ["\(value)"])
            },
        ])
        var result = BenchResult(workload: workload, size: keys, ours: medians.of("ours"), unit: "ns")
        result.floor("starting and reaping /bin/true", medians.of("floor"))
        result.peer(reading ? "GSettings (the gsettings get command)" : "GSettings (the gsettings set command)", "gsettings", in: medians)
        return result
    }

    /// Wall-clock nanoseconds from spawning `command` to reaping it; a failure is an error.
    private static func timedRun(_ command: [String]) throws -> Double {
        var status: Int32 = 0
        let elapsed = try elapsedNanoseconds {
            status = try spawnAndWait(command[0], Array(command.dropFirst())).status
        }
        guard status == 0 else { throw BenchError("\(command.joined(separator: " ")) exited with status \(status)") }
        return elapsed
    }
}
