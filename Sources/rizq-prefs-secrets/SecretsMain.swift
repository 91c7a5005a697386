#if CLI
import RizqCommandLine
import RizqSecrets

/// `rizq-prefs-secrets`: the `secret`, `import-app` and `doctor` commands, in an executable of
/// their own so that `rizq-prefs get` and `set` never load swift-crypto or the importers.
/// `rizq-prefs` executes it with the whole command line (as git runs its subcommands). Exit
/// statuses as ``ExitStatus``; every error is one line on stderr.
///
/// Every command of it may hold a key or a secret (`secret`, `import-app` unlocking the vault to
/// store what it imports, `doctor` probing the chain), so the process cannot be dumped or
/// traced from its first instruction on (``ProcessMemory/refuseDumps()``): here, once, for all.
@main
enum SecretsMain {
    static func main() async {
        ProcessMemory.refuseDumps()
        ShellCompletion.answerShellRequests(root: SecretsToolCommand.self)
        await CommandLineMain.run(root: SecretsToolCommand.self)
    }
}
#endif
