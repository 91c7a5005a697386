#if CLI
import RizqCommandLine
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
            {"suite": …, "app": … or null, "group": …, "path": …}. Names are shown with control, \
            direction-changing and invisible characters escaped (\\u{202E}), and a name that can \
            pass for another (look-alike letters, hidden characters) gets a warning on stderr. A \
            folder that cannot be listed is named on stderr, the others are listed all the same, \
            and the exit status is 3. The record of imports (rizq-imports, earlier rizq-migrations) is \
            not a suite and is not listed.
            """)

    @Option(name: .customLong("app"), help: ArgumentHelp("Only this app's suites (and the app-group suites).", valueName: "id"))
    var app: String?

    @Flag(help: "Print a JSON array.")
    var json = false

    func run() throws {
        let catalog = SuiteCatalog()
        let listing = catalog.listing()
        var suites = listing.suites
        if let app { suites = suites.filter { $0.appID == nil || $0.appID == app } }
        if json {
            let items: [PrefValue] = suites.map { suite in
                ["suite": .string(suite.suiteName), "app": suite.appID.map(PrefValue.string) ?? .null,
                 "group": .bool(suite.isGroup), "path": .string(suite.path)]
            }
            Output.line(DisplayText.escapedJSON(PrefValue.array(items).json))
        } else {
            let rows = suites.map { [DisplayText.escaped($0.suiteName), DisplayText.escaped($0.appID ?? "(group)"), DisplayText.escaped($0.path)] }
            Output.raw(Table(header: ["SUITE", "APP", "PATH"], rows: rows).text)
        }
        for warning in LookAlikeNames.warnings(for: suites.map(\.suiteName)) {
            Output.error("warning: suite name '\(warning.name)': \(warning.reason)")
        }
        // With --app, only the folders that hold what was asked for.
        let relevant = app.map { [SuiteLocation.groupsDirectory(root: catalog.root), catalog.root + "/apps", catalog.root + "/apps/" + $0] }
        let unreadable = listing.unreadable.filter { relevant?.contains($0.path) ?? true }
        for folder in unreadable {
            Output.error("cannot list folder \(folder.path): \(folder.reason); its suites are not shown (the others are): chown -R $(id -u) '\(folder.path)' && chmod 700 '\(folder.path)'")
        }
        if !unreadable.isEmpty { throw ExitCode(ExitStatus.storage.rawValue) }
    }
}
#endif
