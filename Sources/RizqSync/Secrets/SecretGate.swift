import Foundation
import RizqCredentials
import RizqPrefs

/// The one place device sync asks the credential rule (`CredentialRule`, the same for import,
/// schema moves and fleet suites) whether a value may leave the machine — or come in from a
/// peer and be published again.
enum SecretGate {
    /// Why `value` under `key` must not be synced (the evidence, never the value); `nil` when it may.
    static func refusal(key: String, value: PrefValue) -> String? {
        CredentialRule.judge(key: key, value: value)?.reason
    }
}
