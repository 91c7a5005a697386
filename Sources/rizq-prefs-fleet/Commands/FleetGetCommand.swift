#if CLI
import RizqCommandLine
import ArgumentParser
import RizqFleet
import RizqPrefs

/// `rizq-prefs fleet get KEY`
struct FleetGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value of a key of a fleet suite.",
        discussion: """
            As 'rizq-prefs get': a string as it is, anything else as compact JSON; --json prints \
            strings as JSON too; exit 1 when the key is absent. The engine is asked first; when \
            it cannot be reached, the value comes from this host's cache, with a warning on \
            stderr.

            Example:
              rizq-prefs fleet get --suite checkout feature.newCheckout
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Argument(help: "The key.", transform: NegativeNumbers.unmarked)
    var key: String

    @Flag(help: "Print the value as JSON even when it is a string.")
    var json = false

    func run() async throws {
        let fleet = try fleetOptions.open()
        try await FleetReading.catchUp(fleet)
        guard let value = fleet.value(forKey: key) else {
            throw CLIError(.notFound, "no key '\(key)' in fleet suite \(fleet.name) (\(fleet.engine.endpointDescription)); list its keys with 'rizq-prefs fleet list'")
        }
        Output.line(json ? value.json : value.plain)
    }
}
#endif
