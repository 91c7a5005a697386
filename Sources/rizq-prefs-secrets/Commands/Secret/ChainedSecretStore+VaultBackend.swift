#if CLI
import RizqCommandLine
import RizqSecrets

extension ChainedSecretStore {
    /// The chain's vault, for the commands that act on the vault itself (`rekey`,
    /// `accept-restored`); an error naming the fix when the app's registry has none.
    func vaultBackend() throws -> VaultSecretStore {
        guard let vault else {
            throw CLIError(SecretError.invalidConfiguration(detail: "this chain has no vault backend (its registry leaves it out); the command acts on the vault only"))
        }
        return vault
    }
}
#endif
