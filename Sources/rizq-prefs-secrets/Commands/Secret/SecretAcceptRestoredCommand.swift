#if CLI
import ArgumentParser
import RizqCommandLine
import RizqSecrets

/// `rizq-prefs secret accept-restored`
struct SecretAcceptRestoredCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept-restored",
        abstract: "Take the vault as it is after you restored an older copy on purpose.",
        discussion: """
            This machine records each vault's generation (under $XDG_STATE_HOME/rizq-prefs/vaults) \
            and refuses an older copy put back in its place, or one in the last release's \
            unsealed format where it has seen the vault sealed: someone could have put it there. \
            When you restored it yourself, from a backup, this forgets the record: the next read \
            accepts the vault as it is, and records it (sealing it if it is unsealed). Nothing \
            else changes.
            """)

    @OptionGroup var name: SecretNameOptions

    func run() throws {
        let chain = try name.chain()
        let vault = try chain.vaultBackend()
        try CLIError.secrets { () throws(SecretError) in
            do throws(VaultError) { try vault.acceptRestoredVault() } catch { throw error.secretError }
        }
        Output.line("the vault of \(chain.service) will be taken as it is at its next read")
    }
}
#endif
