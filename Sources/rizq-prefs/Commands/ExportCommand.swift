#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqPrefs

/// `rizq-prefs export`
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a suite as one JSON object, in the file format.",
        discussion: """
            Keys sorted, two-space indented, dates and data in their tagged forms: what \
            'rizq-prefs import' reads back. When stdout is a file, it is on disk (fsynced) when the \
            command exits 0; a write that fails or stops short (a full disk) is exit 5, and what \
            was written is not a backup.

            Example:
              rizq-prefs export --app com.rizq.app > backup.json
            """)

    @OptionGroup var store: StoreOptions

    func run() throws {
        let suite = try store.openStore()
        let bytes: Data
        do {
            bytes = try suite.exportJSON()
        } catch {
            throw CLIError(.storage, "cannot export suite \(suite.suiteName): \(error)")
        }
        // A backup is good or the command fails: the write, and (for a file) its way to disk.
        Output.outputName = "the export of suite \(suite.suiteName)"
        Output.bytes(bytes)
        Output.syncIfFile()
    }
}
#endif
