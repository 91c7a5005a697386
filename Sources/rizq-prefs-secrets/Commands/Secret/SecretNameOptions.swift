#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets
#if canImport(Glibc)
import Glibc
#endif

/// `--service` and `--app`: whose secrets a `secret` command works on.
struct SecretNameOptions: ParsableArguments {
    // Unconditional: a service name may start with '-' (`--service -x`, or `--service=-x`).
    @Option(parsing: .unconditional, help: ArgumentHelp("The service attribute of the items (default: the app id).", valueName: "name"),
            transform: NegativeNumbers.unmarked)
    var service: String?

    @Option(name: .customLong("app"), help: ArgumentHelp("The app id, the default service (default: $RIZQ_PREFS_APP_ID).", valueName: "id"),
            transform: NegativeNumbers.unmarked)
    var app: String?

    /// The service these options name.
    func name() throws(CLIError) -> String {
        if service?.isEmpty == true {
            throw CLIError(.usage, "--service is empty; give the service name (for example the app id), or leave --service out to use the app id")
        }
        guard let name = service ?? AppIdentity.named(app) else {
            throw CLIError(.usage, "no service given: pass --service NAME or --app ID, or set RIZQ_PREFS_APP_ID")
        }
        return name
    }

    /// The chain of the service, as a command a person runs sees it: the vault may ask for its
    /// passphrase on the terminal when one is attached (never when stdin and stderr are both
    /// pipes, as for a script or a test).
    ///
    /// The process cannot be dumped already (`SecretsMain` refuses dumps before any command runs).
    func chain(_ configure: (inout SecretStoreConfiguration) -> Void = { _ in }) throws(CLIError) -> ChainedSecretStore {
        var configuration = SecretStoreConfiguration()
        configuration.asksOnTerminal = isatty(STDIN_FILENO) != 0 || isatty(STDERR_FILENO) != 0
        configure(&configuration)
        return ChainedSecretStore(service: try name(), configuration: configuration)
    }
}

/// `--backend`: one backend instead of the chain, for `get`, `set`, `delete`, `list`.
struct SecretBackendOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Use this backend alone instead of the chain: \(SecretBackendRegistry.standard.names.map(\.rawValue).joined(separator: ", ")) (default: the chain; see 'rizq-prefs secret backends').",
        valueName: "name"))
    var backend: String?

    /// The backend named, if any.
    func kind() throws(CLIError) -> SecretBackendName? {
        guard let backend else { return nil }
        return try Self.name(backend, option: "--backend ")
    }

    /// `text` as the name of a backend the chain knows, or a usage error listing them.
    static func name(_ text: String, option: String = "") throws(CLIError) -> SecretBackendName {
        let names = SecretBackendRegistry.standard.names
        let name = SecretBackendName(rawValue: text)
        guard names.contains(name) else {
            throw CLIError(.usage, "\(option)'\(text)' is not a backend; give \(names.map(\.rawValue).joined(separator: ", "))")
        }
        return name
    }
}
#endif
