#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs describe KEY`
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Explain a key: what it is, what it takes, its value and where that comes from.",
        discussion: """
            Prints the key's title, description, type, default, range or choices and deprecation \
            note from the suite's installed schema (see 'rizq-prefs range'), then whether it can be \
            changed (false: an administrator locked it), its value, and the layer and file that \
            value comes from: managed (an administrator's forced value), user (the suite file), \
            defaults (an administrator's default), schema (the schema's default). --json prints \
            one JSON object with the same fields. Exits 1 when no schema describes the key and no \
            layer has a value for it.

            Example:
              rizq-prefs describe --app com.rizq.app daily_goal
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key.", transform: NegativeNumbers.unmarked)
    var key: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let suite = try store.openStore()
        let property = suite.installedSchema?.properties[key]
        let value = suite.prefValue(forKey: key)
        guard property != nil || value != nil else {
            let schema = suite.installedSchemaPath.map { "the suite's schema (\($0)) does not describe it" } ?? "the suite has no installed schema"
            throw CLIError(.notFound, "no key '\(key)' in suite \(suite.suiteName): \(schema) and no layer has a value for it; list the keys with 'rizq-prefs list'")
        }
        let fields = KeyDescription.fields(key: key, property: property, suite: suite)
        if json {
            Output.line(PrefValue.dictionary(fields.reduce(into: [:]) { $0[$1.name] = $1.value }).json)
        } else {
            let width = fields.map(\.name.count).max() ?? 0
            for field in fields {
                Output.line(field.name + ":" + String(repeating: " ", count: width - field.name.count + 2) + KeyDescription.words(field.value))
            }
        }
    }
}
#endif
