// A server of a fleet: it reads its feature flag through swift-configuration's ConfigReader, from
// the environment first, then from the fleet suite (PostgreSQL, through this host's cache). Run
// two of them (two hosts); `rizq-prefs fleet set` changes the flag on both, live.
//
//   export RIZQ_FLEET_ENGINE=postgres://app@db.internal/settings PGPASSWORD=…
//   swift run FleetConfig --name server-a                 # runs until Ctrl-C
//   swift run FleetConfig --name server-b --changes 1     # stops after one change
//   rizq-prefs fleet set --suite checkout feature.newCheckout true --bool
//
// Each host keeps its own cache: give each process its own RIZQ_PREFS_HOME (or app id) when
// several run on one machine.
import Configuration
import Foundation
import Logging
import RizqFleet
import ServiceLifecycle

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let name = option("--name") ?? "server"
let stopAfter = option("--changes").flatMap(Int.init)
let environment = ProcessInfo.processInfo.environment
let suite = environment["FLEET_SUITE"] ?? "checkout"

guard let engineURL = environment["RIZQ_FLEET_ENGINE"] else {
    FileHandle.standardError.write(Data("FleetConfig: set RIZQ_FLEET_ENGINE to postgres://USER@HOST:PORT/DATABASE (the password in PGPASSWORD)\n".utf8))
    exit(2)
}

let fleet: FleetSuite
do {
    fleet = try FleetSuite(suite, engine: try PostgresFleetEngine(url: engineURL))
} catch {
    FileHandle.standardError.write(Data("FleetConfig: \(error)\n".utf8))
    exit(1)
}
let provider = FleetSuiteProvider(fleet)
let config = ConfigReader(providers: [
    EnvironmentVariablesProvider(),   // FEATURE_NEWCHECKOUT=true on one host wins over the fleet
    provider,                         // the fleet suite: the same on every host, changed live
])

// Read at once, from the cache: the server starts even when the engine is down.
say("\(name) starts: feature.newCheckout = \(config.bool(forKey: "feature.newCheckout", default: false)) (fleet suite \(suite): \(fleet.status))")

/// Follows the flag; says "ready" once the fleet suite is live and the watch has begun.
struct FlagWatcher: Service {
    let name: String
    let config: ConfigReader
    let fleet: FleetSuite
    let stopAfter: Int?

    func run() async throws {
        for await status in fleet.statusUpdates() where status.isLive { break }
        try await config.watchBool(forKey: "feature.newCheckout", default: false) { updates in
            var first = true
            var changes = 0
            for await on in updates {
                if first {
                    first = false
                    say("\(name) watching feature.newCheckout (now \(on)); change it with: rizq-prefs fleet set --suite \(fleet.name) feature.newCheckout true --bool")
                    say("ready")
                } else {
                    say("\(name): feature.newCheckout changed: \(on) (no restart)")
                    changes += 1
                    if let stopAfter, changes >= stopAfter { break }
                }
            }
        }
    }
}

let logger = Logger(label: "FleetConfig")
// The provider is a Service: it holds the listening connection while the group runs. When the
// watcher returns (--changes N), the group shuts down gracefully, and the provider with it.
let group = ServiceGroup(configuration: ServiceGroupConfiguration(
    services: [
        .init(service: provider),
        .init(service: FlagWatcher(name: name, config: config, fleet: fleet, stopAfter: stopAfter), successTerminationBehavior: .gracefullyShutdownGroup),
    ],
    gracefulShutdownSignals: [.sigterm, .sigint],
    logger: logger))
do {
    try await group.run()
} catch {
    FileHandle.standardError.write(Data("FleetConfig: \(error)\n".utf8))
    exit(1)
}

/// One line on stdout at once (not block-buffered in a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
