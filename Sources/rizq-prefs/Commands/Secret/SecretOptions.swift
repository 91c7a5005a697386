import ArgumentParser
import Foundation
import RizqSecrets

/// `--service` and `--app`, shared by the `secret` commands.
struct SecretOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The service attribute of the items (default: the app id).", valueName: "name"))
    var service: String?

    @Option(name: .customLong("app"), help: ArgumentHelp("The app id, the default service (default: $RIZQ_PREFS_APP_ID).", valueName: "id"))
    var app: String?

    @Flag(help: "Store in the session keyring, forgotten when the keyring daemon stops.")
    var session = false

    @Option(help: ArgumentHelp("Seconds to wait for the Secret Service.", valueName: "seconds"))
    var timeout: Double = 5

    /// The store these options name.
    func openStore() throws(CLIError) -> SecretServiceStore {
        guard let name = service.flatMap({ $0.isEmpty ? nil : $0 }) ?? AppID.resolve(app) else {
            throw CLIError(.usage, "no service given: pass --service NAME or --app ID, or set RIZQ_PREFS_APP_ID")
        }
        return SecretServiceStore(service: name, collection: session ? .session : .default, timeout: timeout)
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
