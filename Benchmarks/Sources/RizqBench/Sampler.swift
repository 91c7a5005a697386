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
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Runs samples after a warm-up, alternating ours and the baseline so that both see the same
/// machine state, and reports medians.
struct Sampler {
    var repetitions: Int
    var warmup: Int

    func compare(ours: () throws -> Double, baseline: () throws -> Double) rethrows -> (ours: Double, baseline: Double) {
        for _ in 0..<warmup {
            _ = try ours()
            _ = try baseline()
        }
        var oursSamples: [Double] = []
        var baselineSamples: [Double] = []
        for _ in 0..<repetitions {
            oursSamples.append(try ours())
            baselineSamples.append(try baseline())
        }
        return (median(oursSamples), median(baselineSamples))
    }

    func single(_ body: () throws -> Double) rethrows -> Double {
        for _ in 0..<warmup { _ = try body() }
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(try body()) }
        return median(samples)
    }
}
