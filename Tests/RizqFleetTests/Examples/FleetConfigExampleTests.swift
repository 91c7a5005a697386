import Foundation
import RizqTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Examples/FleetConfig, run as a user runs it: two server processes (two hosts, each with its
/// own cache) read a flag through ConfigReader; `rizq-prefs fleet set` changes it on both, live.
@Suite struct FleetConfigExampleTests {
    @Test func twoServersSeeTheFlagChangeLive() async throws {
        let server = try PostgresServer.shared()
        let suite = uniqueSuite("example")
        var servers: [(Process, LineReader)] = []
        defer {
            for (process, _) in servers where process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                reapInBackground(process)
            }
        }
        for name in ["server-a", "server-b"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: productsFolder + "/fleet-config-example")
            process.arguments = ["--name", name, "--changes", "1"]
            var environment = ProcessInfo.processInfo.environment
            environment["RIZQ_FLEET_ENGINE"] = server.url
            environment["PGPASSWORD"] = server.password
            environment["FLEET_SUITE"] = suite
            environment["RIZQ_PREFS_HOME"] = temporaryRoot(name)
            environment["RIZQ_PREFS_REPLICA_ID"] = name
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            servers.append((process, LineReader(output.fileHandleForReading)))
        }
        for (process, lines) in servers {
            let starts = await lines.waitFor(timeout: 120) { $0.contains("starts:") }
            #expect(starts?.contains("feature.newCheckout = false") == true, "\(starts ?? "no start line")")
            #expect(await lines.waitFor(timeout: 120) { $0 == "ready" } != nil, "pid \(process.processIdentifier) never said ready: \(lines.all)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = server.password
        environment["RIZQ_PREFS_HOME"] = temporaryRoot("example-cli")
        environment["RIZQ_FLEET_ENGINE"] = server.url
        let set = try await run(productsFolder + "/rizq-prefs", ["fleet", "set", "--suite", suite, "feature.newCheckout", "true", "--bool"], environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        for (name, (process, lines)) in zip(["server-a", "server-b"], servers) {
            let change = await lines.waitFor(timeout: 60) { $0.contains("changed") }
            #expect(change == "\(name): feature.newCheckout changed: true (no restart)")
            await exited(process)
            #expect(process.terminationStatus == 0, "--changes 1 ends the example after the change")
        }
    }
}
