#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets

/// `--service`, `--app`, `--timeout` and `--prompt`, shared by the `secret` commands.
struct SecretOptions: ParsableArguments {
    @OptionGroup var name: SecretNameOptions

    @Flag(help: SecretOptions.promptHelp)
    var prompt = false

    @Option(help: SecretOptions.timeoutHelp, transform: SecretOptions.parseTimeout)
    var timeout: Double = 5

    /// `--prompt`'s help (``SecretReadOptions`` declares it too).
    static let promptHelp = ArgumentHelp(
        "Let a locked keyring ask for its password (a desktop prompt); without it, a locked keyring is an error (exit 4).")
    /// `--timeout`'s help (``SecretReadOptions`` declares it too).
    static let timeoutHelp = ArgumentHelp(
        "Seconds to wait for the Secret Service, more than 0 and at most \(longestTimeout) (default: 5).", valueName: "seconds")

    /// An hour: longer than any prompt a user answers, short enough to end a hung call.
    static let longestTimeout = 3600

    static func parseTimeout(_ text: String) throws -> Double {
        let word = NegativeNumbers.unmarked(text)
        guard let seconds = Double(word), seconds > 0, seconds <= Double(longestTimeout) else {
            throw ValidationError("give a number of seconds greater than 0 and at most \(longestTimeout), such as 5 or 0.5")
        }
        return seconds
    }

    /// The chain these options name (or `backend` alone); new Secret Service items go to
    /// `collection`.
    func openStore(collection: SecretServiceStore.Collection = .default, backend: SecretBackendName? = nil) throws(CLIError) -> ChainedSecretStore {
        try Self.openStore(name: name, prompt: prompt, timeout: timeout, collection: collection, backend: backend)
    }

    /// The chain `name` names (or `backend` alone), with `--prompt` and `--timeout`; new Secret
    /// Service items go to `collection`.
    static func openStore(
        name: SecretNameOptions, prompt: Bool, timeout: Double,
        collection: SecretServiceStore.Collection = .default, backend: SecretBackendName? = nil
    ) throws(CLIError) -> ChainedSecretStore {
        try name.chain { configuration in
            if let backend { configuration.backends = [backend] }
            configuration.secretServiceCollection = collection
            configuration.secretServiceTimeout = timeout
            configuration.allowsPrompt = prompt
            // A prompt the user answers may take longer than the chain's own deadline.
            configuration.deadline = max(configuration.deadline, timeout + 30)
        }
    }
}

extension CLIError {
    /// Runs a secret call, turning its error into a command failure.
    static func secrets<Value>(_ body: () throws(SecretError) -> Value) throws(CLIError) -> Value {
        do {
            return try body()
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
