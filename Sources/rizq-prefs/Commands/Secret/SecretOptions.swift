import ArgumentParser
import Foundation
import RizqSecrets

/// `--service`, `--app`, `--timeout` and `--prompt`, shared by the `secret` commands.
struct SecretOptions: ParsableArguments {
    // Unconditional: a service name may start with '-' (`--service -x`, or `--service=-x`).
    @Option(parsing: .unconditional, help: ArgumentHelp("The service attribute of the items (default: the app id).", valueName: "name"),
            transform: NegativeNumbers.unmarked)
    var service: String?

    @Option(name: .customLong("app"), help: ArgumentHelp("The app id, the default service (default: $RIZQ_PREFS_APP_ID).", valueName: "id"),
            transform: NegativeNumbers.unmarked)
    var app: String?

    @Flag(help: "Let a locked keyring ask for its password (a desktop prompt); without it, a locked keyring is an error (exit 4).")
    var prompt = false

    @Option(help: ArgumentHelp("Seconds to wait for the Secret Service, more than 0 and at most \(Self.longestTimeout) (default: 5).", valueName: "seconds"),
            transform: SecretOptions.parseTimeout)
    var timeout: Double = 5

    /// An hour: longer than any prompt a user answers, short enough to end a hung call.
    static let longestTimeout = 3600

    static func parseTimeout(_ text: String) throws -> Double {
        let word = NegativeNumbers.unmarked(text)
        guard let seconds = Double(word), seconds > 0, seconds <= Double(longestTimeout) else {
            throw ValidationError("give a number of seconds greater than 0 and at most \(longestTimeout), such as 5 or 0.5")
        }
        return seconds
    }

    /// The store these options name; new items go to `collection`.
    func openStore(collection: SecretServiceStore.Collection = .default) throws(CLIError) -> SecretServiceStore {
        if service?.isEmpty == true {
            throw CLIError(.usage, "--service is empty; give the service name (for example the app id), or leave --service out to use the app id")
        }
        guard let name = service ?? AppIdentity.named(app) else {
            throw CLIError(.usage, "no service given: pass --service NAME or --app ID, or set RIZQ_PREFS_APP_ID")
        }
        return SecretServiceStore(service: name, collection: collection, timeout: timeout, allowsPrompt: prompt)
    }
}

extension CLIError {
    /// Runs a Secret Service call, turning its error into a command failure.
    static func secrets<Value>(_ body: () throws(SecretError) -> Value) throws(CLIError) -> Value {
        do {
            return try body()
        } catch {
            throw CLIError(error)
        }
    }
}
