#if CLI
import ArgumentParser
import RizqCommandLine
import RizqSecrets

/// What `secret get`, `secret delete` and `secret list` take alike: the service and its
/// options (``SecretOptions``' own, declared here again in the same order), `--backend`, and
/// `--session`, accepted as before with nothing to do (a read, a delete and a list find items in
/// every keyring, the session keyring included).
///
/// Flat rather than an option group holding ``SecretOptions``: a debug build of argument-parser
/// checks each option group's declarations again for every group around it, so every level of
/// nesting multiplied the parse of a debug `secret get` (0.8 s of CPU at six levels, most of
/// the test suite's time in its secret commands; 0.1 s at four, as `secret set`). The help and
/// the parse are the same.
struct SecretReadOptions: ParsableArguments {
    @OptionGroup var name: SecretNameOptions

    @Flag(help: SecretOptions.promptHelp)
    var prompt = false

    @Option(help: SecretOptions.timeoutHelp, transform: SecretOptions.parseTimeout)
    var timeout: Double = 5

    @OptionGroup var backend: SecretBackendOption

    @Flag(help: .private)
    var session = false

    /// The chain these options name, or the one backend `--backend` names.
    func openStore() throws(CLIError) -> ChainedSecretStore {
        try SecretOptions.openStore(name: name, prompt: prompt, timeout: timeout, backend: backend.kind())
    }
}
#endif
