#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqPrefs

/// `rizq-prefs import FILE`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge a JSON object into a suite, all at once.",
        discussion: """
            FILE (or - for stdin) holds one JSON object, as 'rizq-prefs export' writes it: its keys \
            are set in one batch, all or none, durably; a key whose value is null is removed. \
            --replace makes the suite exactly the object. Input that is missing, not JSON, or not \
            an object is an error (exit 2) and the suite is left untouched. The suite's schema \
            version is kept; a "$schemaVersion" member (a whole suite file given as input) is \
            accepted when it is the suite's version, else refused (exit 2). --salvage imports \
            every key that can be stored and names on stderr those left out (values nested \
            deeper than a suite file holds), for a damaged file that doctor found moved aside.

            Examples:
              rizq-prefs import --app com.rizq.app backup.json
              jq '.theme_mode = "dark"' backup.json | rizq-prefs import --app com.rizq.app -
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The JSON file, or - for stdin.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String

    @Flag(help: "Replace the whole suite instead of merging into it.")
    var replace = false

    @Flag(help: "Import every key that can be stored and name the ones left out (values nested deeper than a suite file holds), instead of refusing the whole file: for a file doctor found moved aside.")
    var salvage = false

    func run() throws {
        let bytes = try InputFile(file).read()
        let suite = try store.openStore()
        let result: SuiteImportResult
        do {
            result = try suite.importJSON(bytes, replacing: replace, salvaging: salvage)
        } catch {
            switch error {
            case .importNotJSON, .importNotAnObject, .importOtherSchemaVersion: throw CLIError(.usage, "\(displayName): \(error)")
            default: throw CLIError(error)
            }
        }
        for key in result.repeatedKeys {
            Output.error("warning: key '\(key)' appears more than once in \(displayName); the last value wins")
        }
        for key in result.skippedKeys {
            Output.error("warning: key '\(key)' in \(displayName) was not imported: its value nests deeper than the \(PrefValue.maximumNesting) levels a suite file holds")
        }
        Output.doneBeforeOutput = "the import itself is complete"
        let count = result.keyCount
        Output.line("imported \(count) key\(count == 1 ? "" : "s") into suite \(suite.suiteName) (\(suite.location.path))\(replace ? ", replacing it" : "")")
    }

    private var displayName: String { InputFile(file).displayName }
}
#endif
