#if CLI
import RizqCommandLine
import ArgumentParser
import RizqFleet
import RizqPrefs

/// `rizq-prefs fleet set KEY VALUE`
struct FleetSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a value under a key of a fleet suite, for every host.",
        discussion: """
            The value's type as for 'rizq-prefs set': --type T, or --bool, --int, --double, \
            --string (the default), --date, --data, --json. When the command returns 0, the \
            engine has committed the change and every host listening sees it. Exit 7 when a \
            later change of the key (made elsewhere) won; exit 6 when the engine cannot be \
            reached or did not answer in time (nothing written, unless the message says the \
            write may still take effect); exit 2 when the value does not parse or looks like a \
            credential.

            Examples:
              rizq-prefs fleet set --suite checkout feature.newCheckout true --bool
              rizq-prefs fleet set --suite checkout http.timeout 45 --int
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Argument(help: "The key (any text).", transform: NegativeNumbers.unmarked)
    var key: String

    @OptionGroup var typed: TypedValueOptions

    func run() async throws {
        let parsed = try typed.parsed()
        let fleet = try fleetOptions.open()
        // Checked before the engine is contacted: a refused value costs no round trip.
        do {
            try fleet.validate(parsed, forKey: key)
            // What this host has not seen yet is read first: this edit is then stamped after
            // it, as an edit made after seeing the suite.
            try await fleet.synchronize()
            try await fleet.set(parsed, forKey: key)
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
