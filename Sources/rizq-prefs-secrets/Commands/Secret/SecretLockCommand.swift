#if CLI
import RizqCommandLine
import ArgumentParser
import RizqSecrets

/// `rizq-prefs secret lock`
struct SecretLockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Forget the vault's cached key, for every process of this user.",
        discussion: "Invalidates the key that 'secret unlock' cached in the kernel keyring. Later calls unlock through the vault's slots again (or fail, if none can be used without help).")

    @OptionGroup var name: SecretNameOptions

    func run() throws {
        let chain = try name.chain()
        let removed = try CLIError.secrets { () throws(SecretError) in try chain.lockVault() }
        Output.line(removed == 0 ? "no cached key for \(chain.service); nothing to forget" : "forgot the cached key of \(chain.service)")
    }
}
#endif
