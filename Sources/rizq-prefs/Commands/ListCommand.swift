#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs list`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every key and value of a suite.",
        discussion: """
            An aligned table of key, type and value (values as JSON), sorted by key; --json prints \
            one JSON object of all keys instead. An empty suite prints nothing on stdout (with \
            --json, {}) and says so on stderr; the exit status is 0.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let suite = try store.openStore()
        SuiteListing.print(suite.entries, keys: suite.keys, json: json, empty: "suite \(store.suiteDescription) is empty: it has no keys (\(suite.location.path))")
    }
}
#endif
