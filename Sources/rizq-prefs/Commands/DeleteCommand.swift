#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs delete KEY`
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Remove a key.",
        discussion: """
            Exits 1 when the key was not there. The removal is on disk when the command returns. \
            A key an administrator locked (see 'rizq-prefs writable') is refused with exit 8, \
            naming the file that locks it; nothing is removed.

            Example:
              rizq-prefs delete --app com.rizq.app cached_journey_ids
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key to remove.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() throws {
        let suite = try store.openStore()
        do {
            try suite.checkLayers(nil, forKey: key)
        } catch {
            throw CLIError(error)
        }
        guard suite.entries[key] != nil else {
            throw CLIError(.notFound, "no key '\(key)' in suite \(suite.suiteName) (\(suite.location.path)); nothing was removed")
        }
        suite.removeObject(forKey: key)
        try suite.flushOrFail()
    }
}
#endif
