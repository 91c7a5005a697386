import Foundation
import RizqImport
import RizqJSON
import RizqPrefs

/// The one place a value is checked before it may leave this host for the fleet engine:
/// anything the credential classifier recognises is refused, and nothing is written.
///
/// The classifier is the importer's (`CredentialDetector`, RizqImport): a token's shape (JWT,
/// JWE, a known prefix, a session blob, a PEM private key, an authorization header), a known
/// auth library's key, JSON with credential fields, at any depth. Its last rule, a key *name*
/// that mentions a credential, is narrowed here to the name's last dotted component: server
/// settings are namespaced (`auth.provider`, `session.timeout`), and `auth.provider = "google"`
/// is a setting, while `database.password = "…"` is a secret. Only text can hold a credential:
/// strings, text data, and the strings inside arrays and objects; numbers, booleans and dates
/// are never refused.
///
/// Keep every call to the classifier in this file, so that moving the classifier (to a lower
/// module, or to its own "looks like a credential" API) changes one file.
enum FleetSecretGate {
    /// Throws ``FleetError/secretRefused(key:reason:)`` when `value` under `key` looks like a credential.
    static func check(key: String, value: PrefValue?) throws(FleetError) {
        guard let value, let text = inspectableText(value) else { return }
        if let finding = CredentialDetector.inspect(key: key, value: text) {
            guard finding.evidence == .keyName else { throw .secretRefused(key: key, reason: finding.reason) }
            // The whole key's name matched: ask again with its last component only.
            let last = key.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? key
            if let narrowed = CredentialDetector.inspect(key: last, value: text) {
                throw .secretRefused(key: key, reason: narrowed.reason)
            }
        }
    }

    /// The text the classifier reads for a value; `nil` for a value that cannot hold a credential.
    private static func inspectableText(_ value: PrefValue) -> String? {
        switch value {
        case .string(let text):
            return text
        case .data(let bytes):
            return String(data: bytes, encoding: .utf8)
        case .array, .dictionary:
            return try? JSONWriter.string(value, pretty: false)
        case .bool, .int, .unsigned, .double, .date, .null:
            return nil
        }
    }
}
