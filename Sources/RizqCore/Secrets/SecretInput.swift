import Foundation

/// Checks shared by every store: what the Secret Service would refuse, refused early and clearly.
package enum SecretInput {
    /// The largest secret stored: 32 MiB. D-Bus carries at most 64 MiB in one array, and
    /// gnome-keyring was seen to drop off the bus, and a larger message to close the caller's
    /// connection for good, near that size; a secret is a key or a token, not a file.
    package static let maximumSecretSize = 32 << 20

    package static func validate(
        service: String, account: String?, label: String? = nil, secretSize: Int? = nil, lifetime: SecretLifetime? = nil
    ) throws(SecretError) {
        try lifetime?.validate()
        if let secretSize, secretSize > maximumSecretSize {
            throw .invalidInput(reason: "the secret is \(secretSize) bytes, more than the \(maximumSecretSize >> 20) MiB a secret may hold; keep large data in a file and store its encryption key here")
        }
        if let problem = problem(withService: service) { throw .invalidInput(reason: "the service name \(problem)") }
        // An empty account is an ordinary name, as for secret-tool and Python's keyring.
        if let account, account.utf8.contains(0) { throw .invalidInput(reason: "the account (key) contains a NUL byte") }
        if let label, label.utf8.contains(0) { throw .invalidInput(reason: "the label contains a NUL byte") }
    }

    /// The longest service name, in UTF-8 bytes.
    package static let maximumServiceLength = 1_024

    /// The one rule for a service name, the same for every backend: why `service` cannot be
    /// one, or `nil`. Not empty, no NUL byte, at most ``maximumServiceLength`` bytes; anything
    /// else is a name, as for `secret-tool` and Python's keyring. A backend that keeps names
    /// where some of them would be dangerous or impossible stores them encoded — the vault and
    /// plain text as a folder name (RizqSecrets' `VaultLayout.folderName(of:)`), credential
    /// folders as a file name — so that no name becomes a path, a line break or an option.
    package static func problem(withService service: String) -> String? {
        if service.isEmpty { return "is empty; give the app id or another name" }
        if service.utf8.contains(0) { return "contains a NUL byte" }
        if service.utf8.count > maximumServiceLength { return "is longer than \(maximumServiceLength) bytes" }
        return nil
    }

    /// The label shown in keyring managers: names, never the secret.
    package static func defaultLabel(service: String, account: String) -> String {
        "\(account) (\(service))"
    }
}
