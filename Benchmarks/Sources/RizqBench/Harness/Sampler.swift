import Foundation

/// Wall-clock nanoseconds of `body`.
func elapsedNanoseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// Nanoseconds since 1970, comparable between processes.
func wallClockNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

func median(_ samples: [Double]) -> Double {
    percentile(samples, 50)
}

/// The `p`th percentile (nearest rank above the middle for the median of an even count, as the
/// mean of the two middle samples), NaN for no samples.
func percentile(_ samples: [Double], _ p: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    if p == 50 {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// One thing timed in a workload: ours, a floor or a peer. `sample` runs one sample and
/// returns its figure (per operation or for the whole run, as the workload reports).
///
/// A peer's failure costs only the peer: when its sample throws (its process died, its call
/// failed), ``Sampler`` stops sampling it, records why (``Medians/failures``) and goes on with
/// the others. A failure of ours or of a floor ends the workload.
struct Contender {
    var name: String
    var sample: () throws -> Double
    /// A peer (its failure is reported in its column, the run going on).
    var isPeer = false

    init(_ name: String, _ sample: @escaping () throws -> Double) {
        self.name = name
        self.sample = sample
    }

    /// A peer contender (see ``isPeer``).
    static func peer(_ name: String, _ sample: @escaping () throws -> Double) -> Contender {
        var contender = Contender(name, sample)
        contender.isPeer = true
        return contender
    }
}

/// What a ``Sampler`` measured: each contender's median, and why a peer has none.
struct Medians {
    var figures: [String: Double] = [:]
    /// The peers that failed, by name: why (the first failure; the peer was not sampled again).
    var failures: [String: String] = [:]

    /// The median a workload measured for `name`; NaN for a contender not measured (a failed
    /// peer, or anything but ours under `--ours-only`).
    func of(_ name: String) -> Double { figures[name] ?? .nan }
}

/// Runs samples after a warm-up, interleaving the contenders sample by sample so that all see
/// the same machine state (its load swings within minutes), and reports medians.
struct Sampler {
    var repetitions: Int
    var warmup: Int
    /// Runs "ours" alone (`--ours-only`): for profiling ours under callgrind without paying for
    /// the peers, which valgrind slows down as much. The other figures then read NaN.
    var oursOnly = false
    /// Writes every dirty page to disk (`sync()`, untimed) before each sample, for workloads that
    /// end in an fsync: Foundation's `synchronize()` writes its file without fsyncing it, and on
    /// ext4 the next fsync by anyone commits the journal with those pages — the contender after
    /// Foundation would pay for Foundation's write (a 100,000-key flush measured 2.1× the floor
    /// that way, where it is 1.2× on a clean disk).
    var settlesDisk = false

    /// The median of each contender's samples, by name; a peer that fails is dropped from
    /// the rotation and its reason kept.
    func medians(_ contenders: [Contender]) throws -> Medians {
        var contenders = oursOnly ? contenders.filter { $0.name == "ours" } : contenders
        var result = Medians()
        var samples: [String: [Double]] = [:]
        for round in 0..<(warmup + repetitions) {
            for contender in contenders {
                do {
                    let figure = try sample(contender)
                    if round >= warmup { samples[contender.name, default: []].append(figure) }
                } catch {
                    guard contender.isPeer else { throw error }
                    result.failures[contender.name] = "\(error)"
                    FileHandle.standardError.write(Data("  peer \(contender.name) failed: \(error)\n".utf8))
                }
            }
            contenders.removeAll { result.failures[$0.name] != nil }
        }
        for (name, figures) in samples where result.failures[name] == nil { result.figures[name] = median(figures) }
        return result
    }

    private func sample(_ contender: Contender) throws -> Double {
        if settlesDisk { sync() }
        guard Self.traces else { return try contender.sample() }
        let before = TraceReading()
        let figure = try contender.sample()
        Self.trace(contender.name, before, TraceReading(), figure)
        return figure
    }

    /// `RIZQ_BENCH_TRACE=1`: a line on standard error per sample, with the thread's processor
    /// time, page faults and context switches beside the wall clock, and the sample's
    /// `CLOCK_MONOTONIC` interval — to pick a contender's samples out of a
    /// `perf record -k CLOCK_MONOTONIC` of the run (docs/performance.md).
    private static let traces = ProcessInfo.processInfo.environment["RIZQ_BENCH_TRACE"] != nil

    private static func trace(_ name: String, _ before: TraceReading, _ after: TraceReading, _ figure: Double) {
        let line = "TRACE \(name) monotonic=\(before.monotonic)-\(after.monotonic) figure=\(Int(figure))"
            + " wall_us=\((after.monotonic - before.monotonic) / 1_000) cpu_us=\((after.cpu - before.cpu) / 1_000)"
            + " minflt=\(after.usage.ru_minflt - before.usage.ru_minflt) majflt=\(after.usage.ru_majflt - before.usage.ru_majflt)"
            + " vcsw=\(after.usage.ru_nvcsw - before.usage.ru_nvcsw) ivcsw=\(after.usage.ru_nivcsw - before.usage.ru_nivcsw)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

/// The calling thread's clocks and counters at one moment (``Sampler``'s trace).
struct TraceReading {
    /// `CLOCK_MONOTONIC`, nanoseconds (what `perf record -k CLOCK_MONOTONIC` stamps samples with).
    var monotonic: Int
    /// The thread's processor time, nanoseconds.
    var cpu: Int
    var usage = rusage()

    init() {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        monotonic = Int(clock.tv_sec) * 1_000_000_000 + Int(clock.tv_nsec)
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock)
        cpu = Int(clock.tv_sec) * 1_000_000_000 + Int(clock.tv_nsec)
        // RUSAGE_THREAD (1): Glibc's module does not export the constant.
        getrusage(__rusage_who_t(1), &usage)
    }
}
