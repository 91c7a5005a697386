#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqPrefs

/// `rizq-prefs schema`
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the schema version of a suite's data.",
        discussion: """
            Prints the version the suite file records in its "$schemaVersion" member: the version \
            of the app's migrations (SuiteMigrations) the data was last migrated to; the JSON \
            Schema of the suite's keys is another thing, read by 'rizq-prefs describe'. A file that records \
            none, or no file, is version 0. The member is not one of the suite's keys: list, get \
            and export never show it, and set refuses its name; only an app that opens the suite \
            with a newer schema changes it, by migrating the data. --json prints \
            {"suite": …, "path": …, "exists": …, "version": …}.

            A dry run of a migration needs the app's schema, which is Swift code: the library's \
            SuiteStore.previewMigration(suite:migrations:) returns what each stage would change \
            (the seed example prints it with --migration-preview).

            Examples:
              rizq-prefs schema --app com.rizq.app
              rizq-prefs schema --suite group.com.rizq.app --json
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let suite = try store.openStore()
        let version = suite.schemaVersion
        // A member that is not a version stays an ordinary key (as in files written before).
        if let member = suite.prefValue(forKey: SuiteMigrations.versionKey) {
            Output.error("warning: the file's \"\(SuiteMigrations.versionKey)\" member holds a \(member.kindName), not a schema version: it reads as an ordinary key and the version is 0; an app with a schema refuses to migrate the suite until it is fixed by hand")
        }
        if json {
            let exists = FileManager.default.fileExists(atPath: suite.location.path)
            let report: PrefValue = [
                "suite": .string(suite.suiteName), "path": .string(suite.location.path),
                "exists": .bool(exists), "version": .int(version),
            ]
            Output.line(report.json)
        } else {
            Output.line(String(version))
        }
    }
}
#endif
