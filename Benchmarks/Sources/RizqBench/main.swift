import Foundation
import RizqPrefs

// RizqBench [--quick] — prints {"results": [...]} on stdout; scripts/bench formats it.
// Child modes (started by the benchmark itself): child-ping, child-memory.
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("RizqBench: \(message)\n".utf8))
    exit(1)
}

do {
    switch arguments.first {
    case "child-ping":
        guard arguments.count == 3, let rounds = Int(arguments[2]) else { fail("child-ping ROOT ROUNDS") }
        try CrossProcessWorkload.child(root: arguments[1], rounds: rounds)
        exit(0)
    case "child-memory":
        guard arguments.count == 4 else { fail("child-memory ours|foundation ROOT SUITE") }
        try MemoryWorkload.child(kind: arguments[1], root: arguments[2], suite: arguments[3])
        exit(0)
    default:
        break
    }
} catch {
    fail("\(error)")
}

let quick = arguments.contains("--quick")
guard let homePath = ProcessInfo.processInfo.environment["RIZQ_BENCH_HOME"] else {
    fail("set RIZQ_BENCH_HOME to an empty temporary folder (scripts/bench does)")
}
let home = BenchHome(path: homePath)
let sizes = quick ? [100] : [100, 10_000, 100_000]
let sampler = quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 9, warmup: 2)
let slowSampler = quick ? Sampler(repetitions: 1, warmup: 0) : Sampler(repetitions: 5, warmup: 1)

func progress(_ text: String) {
    FileHandle.standardError.write(Data("  \(text)\n".utf8))
}

var results: [BenchResult] = []
do {
    for size in sizes {
        progress("get, \(size) keys")
        results.append(try GetWorkload.run(home: home, size: size, sampler: sampler, reads: quick ? 1_000 : 100_000))
        progress("set, \(size) keys")
        results.append(try SetWorkload.run(home: home, size: size, sampler: slowSampler, oursWrites: quick ? 100 : 10_000, baselineWrites: quick ? 100 : 1_000))
        progress("open, \(size) keys")
        results.append(try OpenWorkload.run(home: home, size: size, sampler: slowSampler))
    }
    progress("bulk")
    results.append(try BulkWorkload.run(home: home, sampler: slowSampler, writes: quick ? 100 : 10_000))
    progress("codable")
    results.append(try CodableWorkload.run(home: home, sampler: sampler, pairs: quick ? 100 : 10_000))
    progress("cross-process")
    results.append(try await CrossProcessWorkload.run(home: home, rounds: quick ? 5 : 50))
    progress("memory")
    results.append(try MemoryWorkload.run(home: home, size: quick ? 100 : 100_000))
} catch {
    fail("\(error)")
}

struct Report: Encodable { var results: [BenchResult] }
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
do {
    print(String(decoding: try encoder.encode(Report(results: results)), as: UTF8.self))
} catch {
    fail("\(error)")
}
