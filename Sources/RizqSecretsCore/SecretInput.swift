import Foundation

/// Checks shared by every store: what the Secret Service would refuse, refused early and clearly.
package enum SecretInput {
    package static func validate(service: String, account: String?, label: String? = nil) throws(SecretError) {
        if service.isEmpty { throw .invalidInput(reason: "the service name is empty; give the app id or another name") }
        if service.utf8.contains(0) { throw .invalidInput(reason: "the service name contains a NUL byte") }
        // An empty account is an ordinary name, as for secret-tool and Python's keyring.
        if let account, account.utf8.contains(0) { throw .invalidInput(reason: "the account (key) contains a NUL byte") }
        if let label, label.utf8.contains(0) { throw .invalidInput(reason: "the label contains a NUL byte") }
    }

    /// The label shown in keyring managers: names, never the secret.
    package static func defaultLabel(service: String, account: String) -> String {
        "\(account) (\(service))"
    }

    /// The app id: `RIZQ_PREFS_APP_ID`, else the executable's name (as RizqPrefs decides it).
    package static func defaultService() -> String {
        if let appID = ProcessInfo.processInfo.environment["RIZQ_PREFS_APP_ID"], !appID.isEmpty { return appID }
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "app").lastPathComponent
        return name.isEmpty ? "app" : name
    }
}
