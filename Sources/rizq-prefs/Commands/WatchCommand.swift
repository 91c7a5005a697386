import RizqCommandLine
import ArgumentParser
import Dispatch
import Foundation
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// `rizq-prefs watch [KEY…]`
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change to a suite as it happens, until interrupted.",
        discussion: """
            Follows the suite file, so changes made by other processes (apps, another rizq-prefs) \
            show up within milliseconds of their write. With KEYs, only those keys. One line per \
            change:
              current_streak = 12
              cached_journey_ids removed
            --json prints one JSON object per line instead, with a stable shape:
              {"key":"current_streak","origin":"external","removed":false,"value":12}
            "origin" is "external" for a change written by another process, "local" for one made \
            by this process. A line on stderr says when watching has begun. Stops on Ctrl-C or \
            SIGTERM, with exit 0.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "Only these keys (default: every key).", transform: NegativeNumbers.unmarked)
    var keys: [String] = []

    @Flag(help: "Print one JSON object per change.")
    var json = false

    func run() async throws {
        let suite = try store.openStore()
        let wanted = Set(keys)
        let changes = suite.changes()
        Self.stopOnSignals()
        Output.note("watching suite \(suite.suiteName) (\(suite.location.path))\(keys.isEmpty ? "" : " for " + keys.joined(separator: ", ")); Ctrl-C to stop")
        for await change in changes where wanted.isEmpty || wanted.contains(change.key) {
            Output.line(json ? Self.jsonLine(change) : Self.textLine(change))
        }
    }

    static func textLine(_ change: SuiteChange) -> String {
        guard let value = change.newValue else { return "\(change.key) removed" }
        return "\(change.key) = \(value.json)"
    }

    static func jsonLine(_ change: SuiteChange) -> String {
        let object: PrefValue = [
            "key": .string(change.key),
            "value": change.newValue ?? .null,
            "removed": .bool(change.newValue == nil),
            "origin": .string(change.origin == .local ? "local" : "external"),
        ]
        return object.json
    }

    /// Ctrl-C and SIGTERM end the command with status 0: watching has no other end.
    private static func stopOnSignals() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { Glibc.exit(0) }
            source.resume()
            signalSources.append(source)
        }
    }

    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
}
