#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqPrefs
import RizqSecrets

/// `rizq-prefs secret list`
struct SecretListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the secrets' names (never their values).",
        discussion: """
            One account per line, sorted; --json prints a JSON array of names. --long adds when \
            each secret expires ('expired' once it has; '-' when it does not) and whether it has \
            a refresh token; with --json, an array of objects {"account", "expires", "expired", \
            "refreshToken": true|false}. --long reads each secret (never printing it).
            """)

    @OptionGroup var read: SecretReadOptions

    @Flag(help: "Print a JSON array.")
    var json = false

    @Flag(name: [.short, .long], help: "Show when each secret expires, and whether it has a refresh token.")
    var long = false

    func run() throws {
        let store = try read.openStore()
        let accounts = try CLIError.secrets { () throws(SecretError) in try store.accounts() }
        if long {
            try printLong(accounts, store)
        } else if json {
            Output.line(PrefValue.array(accounts.map(PrefValue.string)).json)
        } else {
            for account in accounts { Output.line(account) }
        }
    }

    private func printLong(_ accounts: [String], _ store: ChainedSecretStore) throws {
        let now = Date()
        var rows: [[String]] = []
        var objects: [PrefValue] = []
        for account in accounts {
            let reading = try CLIError.secrets { () throws(SecretError) in try store.readSecret(forAccount: account) }
            let lifetime: SecretLifetime? = switch reading {
            case .found(_, let lifetime)?: lifetime
            case .expired(let lifetime)?: lifetime
            case nil: nil
            }
            let expires = lifetime?.expires
            let expired = lifetime?.isExpired(at: now) ?? false
            let hasToken = lifetime?.refreshToken != nil
            let when = expires.map(SecretLifetimeOptions.shown) ?? "-"
            rows.append([account, expired ? "expired \(when)" : when, hasToken ? "yes" : "no"])
            objects.append(.dictionary([
                "account": .string(account), "expires": expires.map { .string(SecretLifetimeOptions.shown($0)) } ?? .null,
                "expired": .bool(expired), "refreshToken": .bool(hasToken),
            ]))
        }
        if json {
            Output.line(PrefValue.array(objects).json)
        } else {
            Output.raw(Table(header: ["ACCOUNT", "EXPIRES", "REFRESH TOKEN"], rows: rows).text)
        }
    }
}
#endif
