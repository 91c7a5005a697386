import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs get KEY`
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value of a key.",
        discussion: """
            Prints a string as it is and any other value as compact JSON (dates and data in their \
            tagged forms, {"$date": …} and {"$data": …}); --json prints strings as JSON too. Nothing \
            but the value goes to stdout. Exits 1, with a message on stderr, when the key is absent.

            Examples:
              rizq-prefs get --app com.rizq.app current_streak
              rizq-prefs get --suite group.com.rizq.app last_sync_timestamp --json
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key (any text: dots, spaces and Unicode are fine).", transform: NegativeNumbers.unmarked)
    var key: String

    @Flag(help: "Print the value as JSON even when it is a string.")
    var json = false

    func run() throws {
        let suite = try store.openStore()
        guard let value = suite.prefValue(forKey: key) else {
            throw CLIError(.notFound, "no key '\(key)' in suite \(suite.suiteName) (\(suite.location.path)); list its keys with 'rizq-prefs list'")
        }
        Output.line(json ? value.json : value.plain)
    }
}
