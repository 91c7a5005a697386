#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqMounts

/// `rizq-prefs get KEY`
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value of a key.",
        discussion: """
            Prints a string as it is and any other value as compact JSON (dates and data in their \
            tagged forms, {"$date": …} and {"$data": …}); --json prints strings as JSON too. Nothing \
            but the value goes to stdout. Exits 1, with a message on stderr, when the key is absent.

            The value is what the app reads: an administrator's forced value (the managed layer), \
            else the suite's own, else an administrator's default, else the default of the suite's \
            installed schema. --source prints, on a second line, the layer it comes from (managed, \
            user, defaults or schema) and the file.

            Examples:
              rizq-prefs get --app com.rizq.app current_streak
              rizq-prefs get --suite group.com.rizq.app last_sync_timestamp --json
              rizq-prefs get --app com.rizq.app update_channel --source
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

    @Flag(help: "Print, on a second line, the layer the value comes from and its file.")
    var source = false

    @Option(help: ArgumentHelp("Read KEY from this mounted folder of one file per key, not from a suite.", valueName: "dir"), completion: .directory)
    var mounted: String?

    /// What a `get` line asks for.
    struct Request {
        /// The suite (`--suite`, `--app`).
        var store: SuiteChoice
        /// The key.
        var key: String
        /// `--json`.
        var json: Bool
        /// `--mounted DIR`.
        var mounted: String?
        /// `--source`.
        var source = false
    }

    var request: Request { Request(store: store.choice, key: key, json: json, mounted: mounted, source: source) }

    func run() throws {
        try Self.run(request)
    }

    static func run(_ request: Request) throws {
        if let mounted = request.mounted {
            try MountedFolderCommands.get(folder: mounted, key: request.key, json: request.json, store: request.store)
            return
        }
        let suite = try request.store.openStore()
        guard let value = suite.prefValue(forKey: request.key) else {
            throw CLIError(.notFound, "no key '\(request.key)' in suite \(suite.suiteName) (\(suite.location.path)); list its keys with 'rizq-prefs list'")
        }
        Output.line(request.json ? value.json : value.plain)
        if request.source, let source = suite.source(forKey: request.key) {
            Output.line(source.path.map { "\(source.layer.rawValue) \($0)" } ?? source.layer.rawValue)
        }
    }
}

extension GetCommand: PlainLineCommand {
    static let plainOptions = StoreOptions.plainOptions.union(["mounted"])
    static let plainFlags: Set<String> = ["json", "source"]

    static func request(plain words: PlainWords) -> Request? {
        guard words.arguments.count == 1 else { return nil }
        return Request(
            store: SuiteChoice(plain: words), key: words.arguments[0], json: words.flags.contains("json"), mounted: words.values["mounted"],
            source: words.flags.contains("source"))
    }
}
#endif
