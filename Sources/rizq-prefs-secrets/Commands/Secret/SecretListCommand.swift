#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqSecrets

/// `rizq-prefs secret list`
struct SecretListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the secrets' names (never their values).",
        discussion: "One account per line, sorted; --json prints a JSON array of names.")

    @OptionGroup var read: SecretReadOptions

    @Flag(help: "Print a JSON array.")
    var json = false

    func run() throws {
        let store = try read.openStore()
        let accounts = try CLIError.secrets { () throws(SecretError) in try store.accounts() }
        if json {
            Output.line(PrefValue.array(accounts.map(PrefValue.string)).json)
        } else {
            for account in accounts { Output.line(account) }
        }
    }
}
#endif
