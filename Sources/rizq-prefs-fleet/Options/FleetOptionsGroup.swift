#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqFleet
import RizqPrefs

/// `--engine`, `--suite` and `--timeout`, shared by every fleet command.
struct FleetOptionsGroup: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The engine: postgres://USER@HOST:PORT/DATABASE[?sslmode=…&sslrootcert=…] (default: $RIZQ_FLEET_ENGINE); the password goes in PGPASSWORD.",
        valueName: "url"), transform: NegativeNumbers.unmarked)
    var engine: String?

    @Option(name: .long, help: ArgumentHelp("The fleet suite.", valueName: "name"), transform: NegativeNumbers.unmarked)
    var suite: String?

    @Option(name: .long, help: ArgumentHelp("Seconds each call to the engine may take, more than 0 and at most 3600 (default 5).", valueName: "seconds"))
    var timeout: Double = 5

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout is seconds, more than 0 and at most 3600") }
    }

    /// The engine and the suite over this host's cache for the command line.
    func open() throws(CLIError) -> FleetSuite {
        guard let suite, !suite.isEmpty else {
            throw CLIError(.usage, "no fleet suite given: pass --suite NAME")
        }
        let url: String
        if let engine {
            guard !PostgresFleetConfiguration.urlHasPassword(engine) else {
                throw CLIError(.usage, "the --engine URL holds a password, which every user of this machine can read (ps); put the password in PGPASSWORD, or the whole URL in RIZQ_FLEET_ENGINE")
            }
            url = engine
        } else if let fromEnvironment = ProcessInfo.processInfo.environment["RIZQ_FLEET_ENGINE"], !fromEnvironment.isEmpty {
            url = fromEnvironment
        } else {
            throw CLIError(.usage, "no engine given: pass --engine postgres://USER@HOST:PORT/DATABASE or set RIZQ_FLEET_ENGINE")
        }
        do {
            var configuration = try PostgresFleetConfiguration(url: url)
            configuration.callTimeout = .milliseconds(Int(timeout * 1000))
            configuration.connectTimeout = min(configuration.connectTimeout, configuration.callTimeout)
            let engine = try PostgresFleetEngine(configuration: configuration)
            return try FleetSession.open(suite: suite, engine: engine)
        } catch {
            throw CLIError(error)
        }
    }
}

/// The fleet suite a command opened: its engine is shut down, and a private copy of the cache
/// removed, when the command ends.
enum FleetSession {
    /// The app id under which the command line keeps its caches.
    static let cacheAppID = "rizq-prefs-fleet"

    nonisolated(unsafe) private static var opened: [(FleetSuite, String?)] = []

    /// Opens `suite` over the command line's cache; when another process (a `watch`) holds
    /// that cache, over a private copy of it, removed at the end.
    static func open(suite: String, engine: PostgresFleetEngine) throws(FleetError) -> FleetSuite {
        let location = FleetCacheLocation(suiteName: "fleet." + suite, appID: cacheAppID)
        do {
            let fleet = try FleetSuite(suite, engine: engine, options: FleetOptions(cache: location))
            opened.append((fleet, nil))
            return fleet
        } catch .cacheInUse {
            let root = NSTemporaryDirectory() + "rizq-prefs-fleet-\(getpid())-\(UUID().uuidString.prefix(8))"
            copyCache(location, to: root)
            let fleet = try FleetSuite(suite, engine: engine, options: FleetOptions(cache: FleetCacheLocation(suiteName: location.suiteName, appID: cacheAppID, root: root)))
            opened.append((fleet, root))
            return fleet
        }
    }

    /// The cache's two suite files, copied under `root` (a missing one is skipped).
    private static func copyCache(_ location: FleetCacheLocation, to root: String) {
        for name in [location.suiteName, location.suiteName + ".state"] {
            guard let source = try? SuiteLocation(suiteName: name, appID: cacheAppID, root: SuiteLocation.defaultRoot()),
                let target = try? SuiteLocation(suiteName: name, appID: cacheAppID, root: root)
            else { continue }
            try? FileManager.default.createDirectory(atPath: target.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try? FileManager.default.copyItem(atPath: source.path, toPath: target.path)
        }
    }

    /// Writes the caches, closes the engines, removes private copies.
    static func finish() {
        for (fleet, privateRoot) in opened {
            fleet.settle()
            if let privateRoot { try? FileManager.default.removeItem(atPath: privateRoot) }
        }
        opened = []
    }
}
#endif
