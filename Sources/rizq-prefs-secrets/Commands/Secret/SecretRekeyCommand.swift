#if CLI
import ArgumentParser
import RizqCommandLine
import RizqSecrets

/// `rizq-prefs secret rekey`
struct SecretRekeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Give the vault a new key: re-encrypt it and wrap the new key in every slot.",
        discussion: """
            Makes a new identity for the service's vault, wraps it in every slot the vault has \
            (systemd-creds, the passphrase, a key file that holds the vault's key), re-encrypts \
            the vault to it, and forgets the old key's cached copies. An old slots/passphrase.age \
            with its old passphrase, an old key file or a leaked identity opens nothing written \
            from then on, and this machine refuses a vault put back under the old key. The \
            passphrase slot takes the passphrase its source gives now (asked twice on a \
            terminal): a re-key also changes the passphrase. Run 'rizq-prefs secret unlock' \
            afterwards to cache the new key.
            """)

    @OptionGroup var name: SecretNameOptions

    func run() throws {
        let chain = try name.chain()
        let vault = try chain.vaultBackend()
        let recipient = try CLIError.secrets { () throws(SecretError) in
            do throws(VaultError) { return try vault.rekey() } catch { throw error.secretError }
        }
        Output.line("the vault of \(chain.service) has a new key (\(recipient)); every slot holds it, and the old key opens nothing written from now on")
    }
}
#endif
