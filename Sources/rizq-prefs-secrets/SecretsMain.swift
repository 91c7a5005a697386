#if CLI
import RizqCommandLine

/// `rizq-prefs-secrets`: the `secret`, `import-app` and `doctor` commands, in an executable of
/// their own so that `rizq-prefs get` and `set` never load swift-crypto or the importers.
/// `rizq-prefs` executes it with the whole command line (as git runs its subcommands). Exit
/// statuses as ``ExitStatus``; every error is one line on stderr.
@main
enum SecretsMain {
    static func main() async {
        ShellCompletion.answerShellRequests(root: SecretsToolCommand.self)
        await CommandLineMain.run(root: SecretsToolCommand.self)
    }
}
#endif
