import ArgumentParser
import RizqPrefs

/// `rizq-prefs list`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every key and value of a suite.",
        discussion: """
            An aligned table of key, type and value (values as JSON), sorted by key; --json prints \
            one JSON object of all keys instead. An empty suite prints nothing (or {}).
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let suite = try store.openStore()
        let entries = suite.entries
        if json {
            Output.line(PrefValue.dictionary(entries).json)
            return
        }
        let keys = suite.keys
        let rows = keys.map { key in [key, entries[key]?.kindName ?? "", entries[key]?.json ?? ""] }
        Output.raw(Table(header: ["KEY", "TYPE", "VALUE"], rows: rows).text)
    }
}
