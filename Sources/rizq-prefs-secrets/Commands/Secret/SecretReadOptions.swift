#if CLI
import ArgumentParser
import RizqCommandLine
import RizqSecrets

/// What `secret get`, `secret delete` and `secret list` take alike: the service and its
/// options, `--backend`, and `--session`, accepted as before with nothing to do (a read, a
/// delete and a list find items in every keyring, the session keyring included).
struct SecretReadOptions: ParsableArguments {
    @OptionGroup var options: SecretOptions

    @OptionGroup var backend: SecretBackendOption

    @Flag(help: .private)
    var session = false

    /// The chain these options name, or the one backend `--backend` names.
    func openStore() throws(CLIError) -> ChainedSecretStore {
        try options.openStore(backend: backend.kind())
    }
}

/// ``SecretReadOptions`` and the account a command works on.
struct SecretItemOptions: ParsableArguments {
    @OptionGroup var read: SecretReadOptions

    @Argument(help: "The account: the secret's name.", transform: NegativeNumbers.unmarked)
    var key: String
}
#endif
