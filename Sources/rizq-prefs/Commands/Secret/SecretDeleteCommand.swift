import RizqCommandLine
import ArgumentParser
import RizqSecrets

/// `rizq-prefs secret delete KEY`
struct SecretDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a secret.",
        discussion: "Exits 1 when there was no such secret.")

    @OptionGroup var options: SecretOptions

    @OptionGroup var backend: SecretBackendOption

    /// Accepted as before, with nothing to do: a read, a delete and a list find items in every
    /// keyring, the session keyring included.
    @Flag(help: .private)
    var session = false

    @Argument(help: "The account: the secret's name.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() throws {
        let store = try options.openStore(backend: backend.kind())
        let deleted = try CLIError.secrets { () throws(SecretError) in try store.deleteSecret(forAccount: key) }
        guard deleted else {
            throw CLIError(.notFound, "no secret '\(key)' for service \(store.service); nothing was deleted")
        }
    }
}
