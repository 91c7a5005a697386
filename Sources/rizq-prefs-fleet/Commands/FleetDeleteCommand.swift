#if CLI
import RizqCommandLine
import ArgumentParser
import RizqFleet

/// `rizq-prefs fleet delete KEY`
struct FleetDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Remove a key from a fleet suite, for every host.",
        discussion: """
            Exit 1 when the key is not there; otherwise the removal (a tombstone, kept 90 days) \
            is committed when the command returns. Exit 7 when a later change of the key won; \
            exit 6 when the engine cannot be reached or did not answer in time (nothing removed, \
            unless the message says the removal may still take effect).

            Example:
              rizq-prefs fleet delete --suite checkout feature.oldBanner
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Argument(help: "The key to remove.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() async throws {
        let fleet = try fleetOptions.open()
        try await FleetReading.catchUpOrFail(fleet)
        guard fleet.value(forKey: key) != nil else {
            throw CLIError(.notFound, "no key '\(key)' in fleet suite \(fleet.name) (\(fleet.engine.endpointDescription)); nothing was removed")
        }
        do {
            try await fleet.removeValue(forKey: key)
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
