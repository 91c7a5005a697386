#if CLI
import ArgumentParser
import RizqCommandLine
import RizqSecrets

/// `rizq-prefs secret upgrade`
struct SecretUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Take a vault written by an earlier release (unsealed) as yours, and seal it.",
        discussion: """
            Releases before this one wrote the vault unsealed: anyone who had its public key \
            (recipient.txt) could have written such a file, so no read accepts one. Run this once \
            for a vault you wrote before upgrading: it is read as it is and rewritten sealed. \
            Nothing else changes; a vault that is sealed already is left as it is.
            """)

    @OptionGroup var name: SecretNameOptions

    func run() throws {
        let chain = try name.chain()
        let vault = try chain.vaultBackend()
        let sealed = try CLIError.secrets { () throws(SecretError) -> Bool in
            do throws(VaultError) { return try vault.upgradeUnsealedVault() } catch { throw error.secretError }
        }
        Output.line(sealed ? "the vault of \(chain.service) was taken as it was and sealed" : "the vault of \(chain.service) is sealed already: nothing to do")
    }
}
#endif
