#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs get KEY`
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value of a key.",
        discussion: """
            Prints a string as it is and any other value as compact JSON (dates and data in their \
            tagged forms, {"$date": …} and {"$data": …}); --json prints strings as JSON too. Nothing \
            but the value goes to stdout. Exits 1, with a message on stderr, when the key is absent.

            Examples:
              rizq-prefs get --app com.rizq.app current_streak
              rizq-prefs get --suite group.com.rizq.app last_sync_timestamp --json
              rizq-prefs get --mounted /etc/config http.timeout

            --mounted DIR reads KEY from a mounted folder of one file per key instead of a \
            suite (a Kubernetes ConfigMap or Secret volume, Docker's /run/secrets, systemd's \
            $CREDENTIALS_DIRECTORY), as an app's MountedFolderProvider does: from one \
            generation, the file's text with its trailing newlines cut. A warning on stderr says \
            when the file is a subPath mount, which never updates.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key (any text: dots, spaces and Unicode are fine).", transform: NegativeNumbers.unmarked)
    var key: String

    @Flag(help: "Print the value as JSON even when it is a string.")
    var json = false

    @Option(help: ArgumentHelp("Read KEY from this mounted folder of one file per key, not from a suite.", valueName: "dir"))
    var mounted: String?

    func run() throws {
        if let mounted {
            try MountedFolderCommands.get(folder: mounted, key: key, json: json, store: store)
            return
        }
        let suite = try store.openStore()
        guard let value = suite.prefValue(forKey: key) else {
            throw CLIError(.notFound, "no key '\(key)' in suite \(suite.suiteName) (\(suite.location.path)); list its keys with 'rizq-prefs list'")
        }
        Output.line(json ? value.json : value.plain)
    }
}
#endif
