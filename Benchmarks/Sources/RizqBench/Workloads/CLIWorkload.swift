import Foundation
import RizqPrefs

/// `cli-get` and `cli-set`: the command-line tool as a shell script meets it — one whole process
/// per call, from `posix_spawn` to its exit — on a suite of ten keys, beside `gsettings get` and
/// `gsettings set` on a key of the bench's own schema (dconf in the bench's D-Bus session), and
/// the floors: starting and reaping `/bin/true`, which is what any process costs; and a Swift
/// program linked as ours is that reads the suite file and prints its size
/// (`Benchmarks/Floors/StartupFloor.swift`), importing Foundation as ours does — the start-up
/// every Swift tool with Foundation pays — and importing FoundationEssentials only.
///
/// Ours is the binary `RIZQ_BENCH_CLI` names: scripts/bench builds it as scripts/install does
/// (release, the Swift runtime linked in), so this is the installed tool's start-up. The two
/// Swift floors are the programs `RIZQ_BENCH_FOUNDATION_FLOOR` and `RIZQ_BENCH_ESSENTIALS_FLOOR`
/// name (scripts/bench builds them with `scripts/build-static --program`); each is left out
/// when its variable is not set.
enum CLIWorkload {
    static let keys = 10

    /// What the two Swift start-up floors are called in the report.
    static let foundationFloor = "a Swift program with Foundation, linked as ours, reading the suite file"
    static let essentialsFloor = "the same with FoundationEssentials only (no swift-corelibs Foundation, no ICU)"

    static func run(_ workload: String, home: BenchHome, options: Options, cli: String?, floors: (foundation: String?, essentials: String?)) throws -> BenchResult {
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
        var contenders = [
            Contender("ours") {
                value += 1
                return try timedRun(reading ? ours : ours.dropLast(2) + ["\(value)", "--int"])
            },
            Contender("floor") { try timedRun(["/bin/true"]) },
            .peer("gsettings") {
                value += 1
                return try timedRun(reading ? gsettings : gsettings.dropLast() + ["\(value)"])
            },
        ]
        // Each Swift floor measured, by the name the report gives it (the contender's name too).
        let swiftFloors = [(foundationFloor, floors.foundation), (essentialsFloor, floors.essentials)].compactMap { name, program in
            program.flatMap { $0.isEmpty ? nil : (name, $0) }
        }
        for (name, program) in swiftFloors {
            contenders.append(Contender(name) { try timedRun([program, store.location.path]) })
        }
        let medians = try sampler.medians(contenders)
        var result = BenchResult(workload: workload, size: keys, ours: medians.of("ours"), unit: "ns")
        result.floor("starting and reaping /bin/true", medians.of("floor"))
        for (name, _) in swiftFloors {
            result.floor(name, medians.of(name))
        }
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
