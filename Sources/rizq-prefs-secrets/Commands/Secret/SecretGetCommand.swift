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
            Exits 1 when there is no such secret, or it expired (the message says which). \
            --refresh-token prints the token that renews it instead, expired or not.
            """)

    @OptionGroup var read: SecretReadOptions

    @Argument(help: "The account: the secret's name.", transform: NegativeNumbers.unmarked)
    var key: String

    @Flag(help: "Print the secret's refresh token (stored with 'secret set --refresh-token-file'), even once it expired.")
    var refreshToken = false

    func run() throws {
        let store = try read.openStore()
        if refreshToken {
            let reading = try CLIError.secrets { () throws(SecretError) in try store.readSecret(forAccount: key) }
            let lifetime: SecretLifetime? = switch reading {
            case .found(_, let lifetime)?: lifetime
            case .expired(let lifetime)?: lifetime
            case nil: nil
            }
            guard let token = lifetime?.refreshToken else {
                throw CLIError(.notFound, reading == nil ? missing(store) : "the secret '\(key)' of service \(store.service) has no refresh token")
            }
            Output.raw(token)
            if Output.isTerminal { Output.raw("\n") }
            return
        }
        let secret = try CLIError.secrets { () throws(SecretError) in try store.secretData(forAccount: key) }
        guard var secret else {
            // Only now is it worth a second look: an expired secret is not served either.
            if case .expired(let lifetime)? = try? store.readSecret(forAccount: key), let expires = lifetime.expires {
                throw CLIError(.notFound, "the secret '\(key)' of service \(store.service) expired at \(SecretLifetimeOptions.shown(expires)) and is no longer served; store a new one (rizq-prefs secret set \(key) --expires …)\(lifetime.refreshToken == nil ? "" : ", renewing it with its refresh token (rizq-prefs secret get --refresh-token \(key))")")
            }
            throw CLIError(.notFound, missing(store))
        }
        Output.bytes(secret)
        if Output.isTerminal { Output.raw("\n") }
        secret.resetBytes(in: 0..<secret.count)
    }

    private func missing(_ store: ChainedSecretStore) -> String {
        "no secret '\(key)' for service \(store.service); list them with 'rizq-prefs secret list'"
    }
}
#endif
