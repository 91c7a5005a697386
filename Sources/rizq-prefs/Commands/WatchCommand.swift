#if CLI
import RizqCommandLine
import ArgumentParser
import Dispatch
import Foundation
import RizqPrefs
import RizqMounts
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

            --mounted DIR watches a mounted folder of one file per key instead (a Kubernetes \
            ConfigMap or Secret volume, Docker's /run/secrets, any such folder): its contents \
            now, then each new generation as kubelet swaps ..data (or each change of a plain \
            folder), never keys of two generations mixed. --json prints one object per snapshot:
              {"changed":["a"],"folder":"/etc/config","generation":"..2026_11_29_05_55_36.2136083382",\
            "keys":["a","b"],"removed":[],"secret":false,"values":{"a":"1","b":"2"},"warnings":[]}
            A folder of secrets never has a value printed, only which keys changed: a folder is \
            one with --secrets, or when it is where hosts put secrets (/run/secrets, \
            /var/run/secrets, $CREDENTIALS_DIRECTORY, or a tmpfs such as a Kubernetes Secret \
            volume).
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "Only these keys (default: every key).", transform: NegativeNumbers.unmarked)
    var keys: [String] = []

    @Flag(help: "Print one JSON object per change.")
    var json = false

    @Option(help: ArgumentHelp("Watch this mounted folder of one file per key, not a suite.", valueName: "dir"), completion: .directory)
    var mounted: String?

    @Flag(help: "With --mounted: the folder holds secrets; never print a value, only which keys changed.")
    var secrets = false

    func run() async throws {
        if let mounted {
            try await watchMounted(mounted)
            return
        }
        let suite = try store.openStore()
        let wanted = Set(keys)
        let changes = suite.changes()
        Self.stopOnSignals()
        Output.note("watching suite \(suite.suiteName) (\(suite.location.path))\(keys.isEmpty ? "" : " for " + keys.joined(separator: ", ")); Ctrl-C to stop")
        for await change in changes where wanted.isEmpty || wanted.contains(change.key) {
            Output.line(json ? Self.jsonLine(change) : Self.textLine(change))
        }
    }

    /// `watch --mounted DIR`: each snapshot of the folder (MountedFolderCommands).
    private func watchMounted(_ path: String) async throws {
        let snapshots = try MountedFolderCommands.watch(folder: path, keys: keys, json: json, secrets: secrets, store: store)
        Self.stopOnSignals()
        Output.note("watching mounted folder \(DisplayText.escaped(path))\(keys.isEmpty ? "" : " for " + keys.map(DisplayText.escaped).joined(separator: ", ")); Ctrl-C to stop")
        var previous: MountedSnapshot?
        for await snapshot in snapshots {
            MountedFolderCommands.note(snapshot.warnings.filter { !(previous?.warnings.contains($0) ?? false) }, folder: path)
            for line in MountedFolderCommands.lines(for: snapshot, previous: previous, keys: keys, json: json) { Output.line(line) }
            previous = snapshot
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
#endif
