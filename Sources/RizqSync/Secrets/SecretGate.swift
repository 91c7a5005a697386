import Foundation
import RizqImport
import RizqJSON
import RizqPrefs

/// The one place device sync asks the credential classifier (RizqImport's `CredentialDetector`,
/// which keeps tokens out of suites on import) whether a value may leave the machine.
///
/// The value is judged as text — a string as it is, data as its UTF-8 (or base64), anything
/// nested as its JSON — under its key's name, with every kind of evidence the classifier knows:
/// a token's shape, JSON fields named like credentials, a known auth library's key, and a key
/// named like a credential (`token`, `session`, `password`, …). Booleans and dates are never
/// credentials (the classifier's own rule). So a synced key *named* like a credential is refused
/// whatever it holds: rename it, or keep it out of sync.
enum SecretGate {
    /// Why `value` under `key` must not be synced (the evidence, never the value); `nil` when it may.
    static func refusal(key: String, value: PrefValue) -> String? {
        guard let text = text(of: value) else { return nil }
        return CredentialDetector.inspect(key: key, value: text)?.reason
    }

    private static func text(of value: PrefValue) -> String? {
        switch value {
        case .bool, .date, .null:
            return nil
        case .string(let string):
            return string
        case .int(let number):
            return String(number)
        case .unsigned(let number):
            return String(number)
        case .double(let number):
            return String(number)
        case .data(let data):
            return String(data: data, encoding: .utf8) ?? data.base64EncodedString()
        case .array, .dictionary:
            return try? JSONWriter.string(value)
        }
    }
}
