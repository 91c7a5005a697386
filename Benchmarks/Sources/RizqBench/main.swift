import Foundation
import RizqPrefs

// RizqBench [--quick] [--only WORKLOAD,...] — prints {"results": [...]} on stdout, progress on
// stderr; scripts/bench builds it in release, runs it on a temporary home inside a private
// Secret Service session, and formats the results.
// Child modes (started by the benchmark itself): child-ping, child-memory.
let arguments = Array(CommandLine.arguments.dropFirst())
// A helper that dies must end the run with its error, not with SIGPIPE on our next write to it.
signal(SIGPIPE, SIG_IGN)

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

let options: Options
do {
    options = try Options(arguments: arguments)
} catch {
    fail("\(error)")
}
let environment = ProcessInfo.processInfo.environment
guard let homePath = environment["RIZQ_BENCH_HOME"] else {
    fail("set RIZQ_BENCH_HOME to an empty temporary folder (scripts/bench does)")
}
let home = BenchHome(path: homePath)

func progress(_ text: String) {
    FileHandle.standardError.write(Data("  \(text)\n".utf8))
}

var results: [BenchResult] = []
do {
    for size in options.sizes {
        if options.runs("get") {
            progress("get, \(size) keys")
            results.append(try GetWorkload.run(home: home, size: size, sampler: options.sampler, reads: options.reads))
        }
        if options.runs("set") {
            progress("set, \(size) keys")
            results.append(try SetWorkload.run(home: home, size: size, sampler: options.slowSampler, writes: options.writes))
        }
        if options.runs("open") {
            progress("open, \(size) keys")
            results.append(try OpenWorkload.run(home: home, size: size, sampler: options.slowSampler))
        }
    }
    if options.runs("bulk") {
        progress("bulk")
        results.append(try BulkWorkload.run(home: home, sampler: options.slowSampler, writes: options.writes))
    }
    if options.runs("codable") {
        progress("codable")
        results.append(try CodableWorkload.run(home: home, sampler: options.sampler, pairs: options.codablePairs))
    }
    if options.runs("cross-process") {
        progress("cross-process")
        results.append(try await CrossProcessWorkload.run(home: home, rounds: options.crossProcessRounds))
    }
    if options.runs("secret-get") {
        progress("secret-get")
        let python = environment["RIZQ_BENCH_PYTHON"]
        if python == nil { progress("  (RIZQ_BENCH_PYTHON is not set: no Python keyring baseline)") }
        results += try SecretWorkload.run(options: options.secret, python: python, helper: environment["RIZQ_BENCH_KEYRING_HELPER"])
    }
    if options.runs("memory") {
        progress("memory")
        results.append(try MemoryWorkload.run(home: home, size: options.memorySize))
    }
} catch {
    fail("\(error)")
}

struct Report: Encodable { var results: [BenchResult] }
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
do {
    print(String(decoding: try encoder.encode(Report(results: results)), as: UTF8.self))
} catch {
    fail("\(error)")
}
