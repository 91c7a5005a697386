#if CLI
import RizqCommandLine
import ArgumentParser
import RizqFleet
import RizqPrefs

/// `rizq-prefs fleet list`
struct FleetListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every key and value of a fleet suite.",
        discussion: """
            As 'rizq-prefs list': an aligned table of key, type and value, sorted by key, or one \
            JSON object with --json; an empty suite prints nothing (with --json, {}) and says so \
            on stderr, exit 0. From this host's cache, with a warning, when the engine cannot be \
            reached.
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() async throws {
        let fleet = try fleetOptions.open()
        try await FleetReading.catchUp(fleet)
        SuiteListing.print(fleet.entries, keys: fleet.keys, json: json, empty: "fleet suite \(fleet.name) is empty: it has no keys (\(fleet.engine.endpointDescription))")
    }
}
#endif
