#if Fleet
import Foundation
import RizqCredentials
import RizqPrefs

/// The one place a value is checked before it may leave this host for the fleet engine: what
/// the credential rule (`CredentialRule`, the same for import, schema moves and device sync)
/// judges a credential is refused, and nothing is written.
enum FleetSecretGate {
    /// Throws ``FleetError/secretRefused(key:reason:)`` when `value` under `key` is a credential.
    static func check(key: String, value: PrefValue?) throws(FleetError) {
        guard let value, let verdict = CredentialRule.judge(key: key, value: value) else { return }
        throw .secretRefused(key: key, reason: verdict.reason)
    }
}
#endif
