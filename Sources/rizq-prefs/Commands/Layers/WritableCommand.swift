#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs writable KEY`
struct WritableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writable",
        abstract: "Print whether a key can be changed (false: an administrator locked it).",
        discussion: """
            Prints true or false, as 'gsettings writable' does: false when an administrator forced \
            the key's value in a managed layer file (<dir>/rizq-prefs/managed/… of $XDG_CONFIG_DIRS, \
            default /etc/xdg): every reader then gets that value, and set, delete and import refuse \
            the key (exit 8). 'rizq-prefs get KEY --source' names the file. The exit status is 0 \
            either way.

            Example:
              rizq-prefs writable --app com.rizq.app update_channel
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The key.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() throws {
        let suite = try store.openStore()
        Output.line(suite.objectIsForced(forKey: key) ? "false" : "true")
    }
}
#endif
