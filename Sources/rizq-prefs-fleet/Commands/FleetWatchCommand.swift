#if CLI
import RizqCommandLine
import ArgumentParser
import Dispatch
import Foundation
import RizqFleet
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// `rizq-prefs fleet watch [KEY…]`
struct FleetWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change to a fleet suite as it happens, on any host, until interrupted.",
        discussion: """
            Listens to the engine: each change made anywhere prints one line, as for \
            'rizq-prefs watch':
              feature.newCheckout = true
              feature.oldBanner removed
            --json prints one JSON object per line instead:
              {"key":"feature.newCheckout","origin":"host-a","removed":false,"value":true}
            where "origin" is the id of the host that made the change. Keys and values are shown \
            with control and invisible characters escaped (\\u{A} in text, \\u000a in JSON), so \
            that each change is one line. First, the changes made \
            since this host's cache last saw the suite. A line on stderr says when watching has \
            begun ("watching …"), and another each time the engine is lost or back (the \
            connection comes back by itself). Stops on Ctrl-C or SIGTERM, with exit 0.
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Argument(help: "Only these keys (default: every key).", transform: NegativeNumbers.unmarked)
    var keys: [String] = []

    @Flag(help: "Print one JSON object per change.")
    var json = false

    func run() async throws {
        let fleet = try fleetOptions.open()
        let wanted = Set(keys)
        let changes = fleet.changes()
        let statuses = fleet.statusUpdates()
        Self.stopOnSignals(fleet)
        let listening = Task { try await fleet.run() }
        let reporting = Task {
            var begun = false
            for await status in statuses {
                if status.isLive, !begun {
                    begun = true
                    Output.note("watching fleet suite \(fleet.name) on \(fleet.engine.endpointDescription)\(keys.isEmpty ? "" : " for " + keys.joined(separator: ", ")); Ctrl-C to stop")
                } else if status.isLive {
                    Output.note("the fleet engine is back; watching again")
                } else if begun {
                    Output.error("warning: the fleet engine at \(fleet.engine.endpointDescription) is unavailable; the cache is \(status); reconnecting")
                }
            }
        }
        for await change in changes where wanted.isEmpty || wanted.contains(change.key) {
            Output.line(json ? Self.jsonLine(change, origin: fleet.stamp(forKey: change.key)?.origin) : Self.textLine(change))
        }
        listening.cancel()
        reporting.cancel()
    }

    /// One line, whatever the key holds: control, bidirectional and invisible characters are
    /// shown escaped (``DisplayText``), so that a key holding a newline cannot forge a line of
    /// its own, nor a U+202E rewrite the one it is on.
    static func textLine(_ change: SuiteChange) -> String {
        let key = DisplayText.escaped(change.key)
        guard let value = change.newValue else { return "\(key) removed" }
        return "\(key) = \(DisplayText.escapedJSON(value.json))"
    }

    static func jsonLine(_ change: SuiteChange, origin: String?) -> String {
        let object: PrefValue = [
            "key": .string(change.key),
            "value": change.newValue ?? .null,
            "removed": .bool(change.newValue == nil),
            "origin": origin.map(PrefValue.string) ?? .null,
        ]
        return DisplayText.escapedJSON(object.json)
    }

    /// Ctrl-C and SIGTERM end the command with status 0, the cache written first.
    private static func stopOnSignals(_ fleet: FleetSuite) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                FleetSession.finish()
                Glibc.exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
}
#endif
