#if CLI
import RizqCommandLine
import ArgumentParser
import RizqSecrets

/// `rizq-prefs secret delete KEY`
struct SecretDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a secret.",
        discussion: "Exits 1 when there was no such secret.")

    @OptionGroup var read: SecretReadOptions

    @Argument(help: "The account: the secret's name.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() throws {
        let store = try read.openStore()
        let deleted = try CLIError.secrets { () throws(SecretError) in try store.deleteSecret(forAccount: key) }
        guard deleted else {
            throw CLIError(.notFound, "no secret '\(key)' for service \(store.service); nothing was deleted")
        }
    }
}
#endif
