#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets

/// `rizq-prefs secret get KEY`
struct SecretGetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a secret.",
        discussion: """
            Prints the secret's bytes as they are, followed by a newline only when stdout is a \
            terminal (as secret-tool does), so that TOKEN=$(rizq-prefs secret get KEY) is exact. \
            Exits 1 when there is no such secret.
            """)

    @OptionGroup var read: SecretReadOptions

    @Argument(help: "The account: the secret's name.", transform: NegativeNumbers.unmarked)
    var key: String

    func run() throws {
        let store = try read.openStore()
        let secret = try CLIError.secrets { () throws(SecretError) in try store.secretData(forAccount: key) }
        guard var secret else {
            throw CLIError(.notFound, "no secret '\(key)' for service \(store.service); list them with 'rizq-prefs secret list'")
        }
        Output.bytes(secret)
        if Output.isTerminal { Output.raw("\n") }
        secret.resetBytes(in: 0..<secret.count)
    }
}
#endif
