import Foundation

/// What to run, from the command line: `RizqBench [--quick] [--only WORKLOAD,...] [--sizes N,...]`.
///
/// `--quick` keeps the harness working in seconds (CI); it measures nothing worth reading.
/// `--only` runs some workloads (see `workloads`) and `--sizes` some suite sizes: for profiling
/// one of them under callgrind (docs/performance.md).
struct Options {
    static let workloads = ["get", "layered-get", "lock-delivery", "set", "set-memory", "set-durable", "flush", "open", "startup", "migrate", "bulk", "codable", "cross-process", "mount-swap", "secret-get", "vault-get", "vault-set", "vault-unlock", "file-keyring-get", "file-keyring-set", "memory", "large", "sync-latency", "sync-merge", "cli-get", "cli-set", "git-helper-vault", "git-helper-keyring", "first-build"]
    /// The workloads with a GSettings peer (they need the schemas and dconf).
    static let gsettingsWorkloads: Set<String> = ["get", "set", "set-memory", "set-durable", "bulk", "cross-process", "cli-get", "cli-set"]

    var quick = false
    /// `--ours-only`: time ours alone, no floors, no peers (for profiling; see `Sampler.oursOnly`).
    var oursOnly = false
    /// `--plan`: print the runs these options ask for, one `WORKLOAD SIZES` line each, in the
    /// order a run takes them, instead of running them (``planned``).
    var plan = false
    var only: Set<String> = Set(Options.workloads)
    private var chosenSizes: [Int]?

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
            case "--ours-only":
                oursOnly = true
            case "--plan":
                plan = true
            case "--sizes":
                guard let list = rest.popFirst() else { throw BenchError("--sizes needs a list of suite sizes") }
                let sizes = list.split(separator: ",").map { Int($0.replacingOccurrences(of: "_", with: "")) }
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    throw BenchError("--sizes takes positive whole numbers, as in --sizes 100,100000")
                }
                chosenSizes = sizes.compactMap { $0 }
            default:
                throw BenchError("unknown option '\(argument)' (use --quick, --only WORKLOAD,..., --sizes N,..., --ours-only, --plan)")
            }
        }
    }

    func runs(_ workload: String) -> Bool { only.contains(workload) }

    /// The workloads that run once per suite size.
    static let sizedWorkloads = ["get", "layered-get", "set-memory", "set", "set-durable", "flush", "open", "startup", "migrate"]
    /// The workloads that run once per vault size (``vaultSizes``): secrets in the vault.
    static let vaultSizedWorkloads = ["vault-set"]

    /// The runs these options ask for, in order: each sized workload at each size, then the
    /// others; a size of `nil` for those. `scripts/bench` runs each in a process of its own, so
    /// that no run inherits the heap an earlier one left (docs/performance.md, "One process per
    /// workload").
    var planned: [(workload: String, size: Int?)] {
        let sized: [(workload: String, size: Int?)] = sizes.flatMap { size in Options.sizedWorkloads.filter(runs).map { ($0, Optional(size)) } }
        let before: [(workload: String, size: Int?)] = ["bulk", "codable", "cross-process", "lock-delivery", "mount-swap", "secret-get", "vault-get"].filter(runs).map { ($0, nil) }
        let vault: [(workload: String, size: Int?)] = vaultSizes.flatMap { size in Options.vaultSizedWorkloads.filter(runs).map { ($0, Optional(size)) } }
        let after: [String] = [
            "vault-unlock", "file-keyring-get", "file-keyring-set", "large", "memory", "sync-latency", "sync-merge", "cli-get", "cli-set",
            "git-helper-vault", "git-helper-keyring", "first-build",
        ]
        return sized + before + vault + after.filter(runs).map { ($0, nil) }
    }

    /// The peer `peer` of `workload` at `size` in a process of its own (``PeerProcess``), set
    /// up and ready; `nil` under `--ours-only`, which runs no peer.
    func peerProcess(_ workload: String, size: Int, peer: String, home: BenchHome) -> PeerProcess? {
        oursOnly ? nil : PeerProcess(workload: workload, size: size, peer: peer, home: home, options: self)
    }

    var needsGSettings: Bool { !oursOnly && !only.isDisjoint(with: Options.gsettingsWorkloads) }

    /// Suite sizes for the workloads where size matters.
    var sizes: [Int] { chosenSizes ?? (quick ? [100] : [100, 10_000, 100_000]) }
    /// Vault sizes (secrets in it) for `vault-set`: a vault is one file holding every secret, so
    /// a set rewrites all of them (issue 39). `--sizes` sets these too.
    var vaultSizes: [Int] { chosenSizes ?? (quick ? [10] : [10, 1_000, 5_000]) }
    /// Cheap workloads: many repetitions.
    var sampler: Sampler { sampling(quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 15, warmup: 3)) }
    /// Workloads of a second or more per sample.
    var slowSampler: Sampler { sampling(quick ? Sampler(repetitions: 1, warmup: 0) : Sampler(repetitions: 7, warmup: 1)) }
    /// Like `slowSampler`, for workloads that end in a durable write: each sample starts on a
    /// settled disk (`Sampler.settlesDisk`).
    var slowDurableSampler: Sampler {
        var sampler = slowSampler
        sampler.settlesDisk = true
        return sampler
    }
    /// Workloads that end in a durable write: the disk's latency swings from one fsync to the
    /// next here, so they take more samples than their cost alone would ask.
    var durableSampler: Sampler {
        var sampler = sampling(quick ? Sampler(repetitions: 1, warmup: 0) : Sampler(repetitions: 15, warmup: 2))
        sampler.settlesDisk = true
        return sampler
    }

    private func sampling(_ sampler: Sampler) -> Sampler {
        var sampler = sampler
        sampler.oursOnly = oursOnly
        return sampler
    }
    var reads: Int { quick ? 1_000 : 100_000 }
    /// `get`: reads per sample for a peer that takes microseconds a read (GSettings).
    var slowReads: Int { quick ? 100 : 10_000 }
    /// `set`, `set-memory`, `bulk`: writes per sample, the same for every store.
    var writes: Int { quick ? 100 : 10_000 }
    /// `set-durable`: durable sets per sample.
    var durableOperations: Int { quick ? 1 : 3 }
    var codablePairs: Int { quick ? 100 : 10_000 }
    /// `cross-process`: measured changes per store (enough for a p99), after a warm-up.
    var crossProcessRounds: Int { quick ? 5 : 200 }
    var crossProcessWarmup: Int { quick ? 2 : 5 }
    /// `cross-process`: a change not delivered after this many seconds counts as lost.
    var lostAfter: Double { 2 }
    var memorySize: Int { quick ? 100 : 100_000 }
    /// `vault-get`: reads per sample.
    var vaultReads: Int { quick ? 20 : 500 }
    var secret: SecretWorkload.Options {
        quick
            ? SecretWorkload.Options(rounds: 2, callsPerRound: 5, spawnsPerRound: 1, warmupRounds: 1)
            : SecretWorkload.Options(rounds: 15, callsPerRound: 20, spawnsPerRound: 2, warmupRounds: 2)
    }
}
