import Foundation
import Logging

// FleetBench [--quick] [--only fleet-set,fleet-delivery,fleet-get] — the fleet suite's
// benchmarks (issue 26), beside their floors measured in the same run; prints {"results": [...]}
// as RizqBench does. scripts/bench runs it under scripts/with-postgres. Child modes (started by
// the benchmark itself): child-watch URL SUITE ROOT ORIGIN, child-listen CHANNEL.
let arguments = Array(CommandLine.arguments.dropFirst())
signal(SIGPIPE, SIG_IGN)
LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FleetBench: \(message)\n".utf8))
    exit(1)
}

let workloads = ["fleet-set", "fleet-delivery", "fleet-get"]
do {
    switch arguments.first {
    case "child-watch":
        guard arguments.count == 5 else { fail("child-watch URL SUITE ROOT ORIGIN") }
        try await DeliveryChildren.watch(url: arguments[1], suite: arguments[2], root: arguments[3], origin: arguments[4])
        exit(0)
    case "child-listen":
        guard arguments.count == 2 else { fail("child-listen CHANNEL") }
        try await DeliveryChildren.listen(channel: arguments[1])
        exit(0)
    default:
        break
    }
    var quick = false
    var only = Set(workloads)
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--quick": quick = true
        case "--only":
            guard let list = rest.popFirst() else { fail("--only needs a list of workloads") }
            only = Set(list.split(separator: ",").map(String.init))
            let unknown = only.subtracting(workloads)
            guard unknown.isEmpty else { fail("unknown workload \(unknown.sorted().joined(separator: ", ")); known: \(workloads.joined(separator: ", "))") }
        default: fail("unknown option '\(argument)' (use --quick, --only WORKLOAD,...)")
        }
    }
    let server = try BenchServer()
    let home = NSTemporaryDirectory() + "rizq-fleet-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    var results: [BenchResult] = []
    if only.contains("fleet-set") {
        progress("fleet-set")
        results.append(try await FleetSetWorkload.run(server: server, home: home, quick: quick))
    }
    if only.contains("fleet-get") {
        progress("fleet-get")
        results.append(try await FleetGetWorkload.run(server: server, home: home, quick: quick))
    }
    if only.contains("fleet-delivery") {
        progress("fleet-delivery")
        results.append(try await FleetDeliveryWorkload.run(server: server, home: home, quick: quick))
    }
    struct Report: Encodable { var results: [BenchResult] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(Report(results: results)), as: UTF8.self))
} catch {
    // String(reflecting:): PSQLError's description hides the server's message.
    fail(String(reflecting: error))
}
