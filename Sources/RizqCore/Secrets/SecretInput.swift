import Foundation

/// Checks shared by every store: what the Secret Service would refuse, refused early and clearly.
package enum SecretInput {
    /// The largest secret stored: 32 MiB. D-Bus carries at most 64 MiB in one array, and
    /// gnome-keyring was seen to drop off the bus, and a larger message to close the caller's
    /// connection for good, near that size; a secret is a key or a token, not a file.
    package static let maximumSecretSize = 32 << 20

    package static func validate(service: String, account: String?, label: String? = nil, secretSize: Int? = nil) throws(SecretError) {
        if let secretSize, secretSize > maximumSecretSize {
            throw .invalidInput(reason: "the secret is \(secretSize) bytes, more than the \(maximumSecretSize >> 20) MiB a secret may hold; keep large data in a file and store its encryption key here")
        }
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
}
