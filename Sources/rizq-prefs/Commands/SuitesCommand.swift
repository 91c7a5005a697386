import ArgumentParser
import RizqPrefs

/// `rizq-prefs suites`
struct SuitesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suites",
        abstract: "List the suites that exist, with their files.",
        discussion: """
            Every suite file under the root ($RIZQ_PREFS_HOME, else $XDG_CONFIG_HOME/rizq-prefs, \
            else ~/.config/rizq-prefs): app-group suites, then each app's. --app shows one app's \
            suites and the group suites. --json prints an array of \
            {"suite": …, "app": … or null, "group": …, "path": …}.
            """)

    @Option(name: .customLong("app"), help: ArgumentHelp("Only this app's suites (and the app-group suites).", valueName: "id"))
    var app: String?

    @Flag(help: "Print a JSON array.")
    var json = false

    func run() throws {
        let catalog = SuiteCatalog()
        var suites: [SuiteCatalog.Entry]
        do {
            suites = try catalog.suites()
        } catch {
            throw CLIError(error)
        }
        if let app { suites = suites.filter { $0.appID == nil || $0.appID == app } }
        if json {
            let items: [PrefValue] = suites.map { suite in
                ["suite": .string(suite.suiteName), "app": suite.appID.map(PrefValue.string) ?? .null,
                 "group": .bool(suite.isGroup), "path": .string(suite.path)]
            }
            Output.line(PrefValue.array(items).json)
            return
        }
        let rows = suites.map { [$0.suiteName, $0.appID ?? "(group)", $0.path] }
        Output.raw(Table(header: ["SUITE", "APP", "PATH"], rows: rows).text)
    }
}
