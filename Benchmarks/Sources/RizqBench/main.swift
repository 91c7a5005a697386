import Foundation
import RizqPrefs

// RizqBench [--quick] [--only WORKLOAD,...] — prints {"results": [...]} on stdout, progress on
// stderr; scripts/bench builds it in release, runs it on a temporary home inside a private
// D-Bus session (gnome-keyring unlocked, dconf activated on demand), and formats the results.
// Child modes (started by the benchmark itself): child-ping, child-kubelet, child-memory,
// child-large, and peer WORKLOAD SIZE PEER (each peer of a workload in a process of its own:
// PeerProcess).
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
        try CrossProcessWorkload.child(arguments: Array(arguments.dropFirst()))
        exit(0)
    case "child-kubelet":
        try MountSwapWorkload.child(arguments: Array(arguments.dropFirst()))
        exit(0)
    case "child-large":
        guard arguments.count == 4, let size = Int(arguments[3]) else { fail("child-large ROOT SUITE SIZE") }
        try LargeSuiteWorkload.child(root: arguments[1], suite: arguments[2], size: size)
        exit(0)
    case "peer":
        try PeerProcess.serve(arguments: Array(arguments.dropFirst()))
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
if options.plan {
    for run in options.planned { print(run.workload, run.size.map(String.init) ?? "-") }
    exit(0)
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
    if options.needsGSettings {
        progress("GSettings: compiling the schemas, checking dconf")
        try GSettingsPeer.install(home: home, sizes: Set(options.sizes + [options.writes]))
    }
    for size in options.sizes {
        if options.runs("get") {
            progress("get, \(size) keys")
            results.append(try GetWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("layered-get") {
            progress("layered-get, \(size) keys")
            results.append(try LayerWorkload.runGet(home: home, size: size, options: options))
        }
        if options.runs("set-memory") {
            progress("set-memory, \(size) keys")
            results.append(try SetMemoryWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("set") {
            progress("set, \(size) keys")
            results.append(try SetWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("set-durable") {
            progress("set-durable, \(size) keys")
            results.append(try SetDurableWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("flush") {
            progress("flush-1000, \(size) keys")
            results.append(try FlushWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("open") {
            progress("open, \(size) keys")
            results.append(try OpenWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("startup") {
            progress("startup, \(size) keys")
            results.append(try StartupWorkload.run(home: home, size: size, options: options))
        }
        if options.runs("migrate") {
            progress("migrate, \(size) keys")
            results.append(try MigrateWorkload.run(home: home, size: size, options: options))
        }
    }
    if options.runs("bulk") {
        progress("bulk")
        results.append(try BulkWorkload.run(home: home, options: options))
    }
    if options.runs("codable") {
        progress("codable")
        results.append(try CodableWorkload.run(home: home, options: options))
    }
    if options.runs("cross-process") {
        progress("cross-process")
        results.append(try CrossProcessWorkload.run(home: home, options: options))
    }
    if options.runs("lock-delivery") {
        progress("lock-delivery")
        results.append(try LayerWorkload.runDelivery(home: home, options: options))
    }
    if options.runs("mount-swap") {
        progress("mount-swap")
        results += try MountSwapWorkload.run(home: home, options: options)
    }
    if options.runs("secret-get") {
        progress("secret-get")
        let python = environment["RIZQ_BENCH_PYTHON"]
        if python == nil { progress("  (RIZQ_BENCH_PYTHON is not set: no Python keyring peer)") }
        results.append(try SecretWorkload.run(options: options.secret, python: python, helper: environment["RIZQ_BENCH_KEYRING_HELPER"]))
    }
    if options.runs("vault-get") {
        progress("vault-get")
        results.append(try VaultWorkload.runGet(
            home: home, options: options, python: environment["RIZQ_BENCH_PYTHON"], helper: environment["RIZQ_BENCH_KEYRING_ALT_HELPER"]))
    }
    if options.runs("vault-set") {
        for size in options.vaultSizes {
            progress("vault-set, \(size) secrets")
            results.append(try VaultWorkload.runSet(home: home, size: size, options: options))
        }
    }
    if options.runs("vault-unlock") {
        progress("vault-unlock")
        results += try VaultWorkload.runUnlock(home: home, options: options)
    }
    if options.runs("file-keyring-get") {
        progress("file-keyring-get")
        results.append(try FileKeyringWorkload.runGet(home: home, options: options))
    }
    if options.runs("file-keyring-set") {
        progress("file-keyring-set")
        results.append(try FileKeyringWorkload.runSet(home: home, options: options))
    }
    if options.runs("large") {
        progress("large, \(LargeSuiteWorkload.size(quick: options.quick)) keys")
        results += try LargeSuiteWorkload.run(home: home, options: options)
    }
    if options.runs("sync-latency") {
        progress("sync-latency (two Syncthing instances)")
        results += try SyncWorkload.latency(home: home, options: options)
    }
    if options.runs("sync-merge") {
        progress("sync-merge")
        results += try SyncWorkload.merge(home: home, options: options)
    }
    for workload in ["cli-get", "cli-set"] where options.runs(workload) {
        progress("\(workload) (whole processes)")
        let floors = (foundation: environment["RIZQ_BENCH_FOUNDATION_FLOOR"], essentials: environment["RIZQ_BENCH_ESSENTIALS_FLOOR"])
        results.append(try CLIWorkload.run(workload, home: home, options: options, cli: environment["RIZQ_BENCH_CLI"], floors: floors))
    }
    for workload in ["git-helper-vault", "git-helper-keyring"] where options.runs(workload) {
        progress("\(workload) (whole processes)")
        results.append(try GitHelperWorkload.run(
            workload, home: home, options: options, helper: environment["RIZQ_BENCH_GIT_HELPER"],
            libsecretHelper: environment["RIZQ_BENCH_LIBSECRET_HELPER"]))
    }
    if options.runs("first-build") {
        progress("first-build (new apps resolved and built from nothing, one per product)")
        results += try FirstBuildWorkload.run(home: home, options: options, repository: environment["RIZQ_BENCH_REPO"])
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
