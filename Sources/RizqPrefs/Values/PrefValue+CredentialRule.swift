import Foundation
import RizqCredentials
import RizqJSON

extension PrefValue {
    /// The value as the credential rule judges it (``CredentialCandidate``): a string as it is,
    /// data by its text (or, when it is not text, its printable runs and base64 form), numbers
    /// by their digits, arrays and dictionaries by their JSON; booleans, dates and null as what
    /// they are (never a credential by their key's name alone).
    package var credentialCandidate: CredentialCandidate {
        switch self {
        case .string(let text): return .string(text)
        case .data(let bytes): return .bytes([UInt8](bytes))
        case .int(let number): return .number(String(number))
        case .unsigned(let number): return .number(String(number))
        case .double(let number): return .number(String(number))
        case .bool(let flag): return .boolean(flag)
        case .date: return .date
        case .null: return .null
        case .array, .dictionary: return .structure(json: (try? JSONWriter.string(self, pretty: false)) ?? "")
        }
    }
}

extension CredentialRule {
    /// Why `value` under `key` is a credential (``judge(key:value:)`` of the value's
    /// ``PrefValue/credentialCandidate``), or `nil`: what device sync, fleet suites and schema
    /// migrations ask before a value leaves a suite or the machine.
    package static func judge(key: String, value: PrefValue) -> Verdict? {
        judge(key: key, value: value.credentialCandidate)
    }
}
