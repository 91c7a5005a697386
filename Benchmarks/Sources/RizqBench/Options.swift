import Foundation

/// What to run, from the command line: `RizqBench [--quick] [--only WORKLOAD,...]`.
///
/// `--quick` keeps the harness working in seconds (CI); it measures nothing worth reading.
/// `--only` runs some workloads (`get`, `set`, `open`, `bulk`, `codable`, `cross-process`,
/// `secret-get`, `memory`): for profiling one of them under callgrind.
struct Options {
    static let workloads = ["get", "set", "open", "bulk", "codable", "cross-process", "secret-get", "memory"]

    var quick = false
    var only: Set<String> = Set(Options.workloads)

    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick":
                quick = true
            case "--only":
                guard let list = rest.popFirst() else { throw BenchError("--only needs a list of workloads") }
                only = Set(list.split(separator: ",").map(String.init))
                let unknown = only.subtracting(Options.workloads)
                guard unknown.isEmpty else {
                    throw BenchError("unknown workload \(unknown.sorted().joined(separator: ", ")); known: \(Options.workloads.joined(separator: ", "))")
                }
            default:
                throw BenchError("unknown option '\(argument)' (use --quick, --only WORKLOAD,...)")
            }
        }
    }

    func runs(_ workload: String) -> Bool { only.contains(workload) }

    /// Suite sizes for the workloads where size matters.
    var sizes: [Int] { quick ? [100] : [100, 10_000, 100_000] }
    /// Cheap workloads: many repetitions.
    var sampler: Sampler { quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 15, warmup: 3) }
    /// Workloads of a second or more per sample.
    var slowSampler: Sampler { quick ? Sampler(repetitions: 1, warmup: 0) : Sampler(repetitions: 7, warmup: 1) }
    var reads: Int { quick ? 1_000 : 100_000 }
    /// `set`: writes per sample, the same for both stores (each then flushes once).
    var writes: Int { quick ? 100 : 10_000 }
    var codablePairs: Int { quick ? 100 : 10_000 }
    var crossProcessRounds: Int { quick ? 5 : 50 }
    var memorySize: Int { quick ? 100 : 100_000 }
    var secret: SecretWorkload.Options {
        quick
            ? SecretWorkload.Options(rounds: 2, callsPerRound: 5, spawnsPerRound: 1, warmupRounds: 1)
            : SecretWorkload.Options(rounds: 15, callsPerRound: 20, spawnsPerRound: 2, warmupRounds: 2)
    }
}
