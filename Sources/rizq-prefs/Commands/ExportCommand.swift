import ArgumentParser
import RizqPrefs

/// `rizq-prefs export`
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a suite as one JSON object, in the file format.",
        discussion: """
            Keys sorted, two-space indented, dates and data in their tagged forms: what \
            'rizq-prefs import' reads back.

            Example:
              rizq-prefs export --app com.rizq.app > backup.json
            """)

    @OptionGroup var store: StoreOptions

    func run() throws {
        let suite = try store.openStore()
        do {
            Output.bytes(try suite.exportJSON())
        } catch {
            throw CLIError(.storage, "cannot export suite \(suite.suiteName): \(error)")
        }
    }
}
