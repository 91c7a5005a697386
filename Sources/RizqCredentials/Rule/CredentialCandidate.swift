import Foundation
import RizqJSON

/// A value as the credential rule judges it: what type it has, and the text its evidence is
/// read from — parsed as JSON at most once however many checks look into it.
///
/// Every module that lets a value leave the machine or a suite hands its value over in this
/// form (RizqPrefs converts a `PrefValue`, the importer a dump's entry), so that the same value
/// gets the same answer everywhere: data is judged by its UTF-8 text, or — when it is not text —
/// by the printable runs inside it and by its base64 form; numbers by their digits; nested
/// values by their JSON.
package final class CredentialCandidate {
    /// What kind of value it is.
    package enum Kind: Sendable, Equatable {
        /// Text (a string, or data that is UTF-8 text).
        case text
        /// Bytes that are not UTF-8 text.
        case binary
        /// A number (integer or floating point).
        case number
        /// A boolean: never a credential by its key's name alone.
        case boolean
        /// A date: never a credential by its key's name alone.
        case date
        /// Null, or nothing.
        case null
        /// An array or object, judged by its JSON text.
        case structure
    }

    /// What kind of value it is.
    package let kind: Kind
    /// The text the checks read: the string; data's UTF-8 (or, for binary data, its printable
    /// runs); a number's digits; a structure's JSON.
    package let text: String
    /// For binary data: its base64 form (a token that was base64-encoded is found in the text
    /// it decodes to, and a base64 token in data is found as it is).
    package let alternateTexts: [String]

    /// A candidate of `kind` whose evidence is read from `text`; `json` when the caller has
    /// parsed ``text`` already (`.some(nil)`: it is not JSON), so that it is not parsed twice.
    package init(kind: Kind, text: String, alternateTexts: [String] = [], json: JSONNode?? = nil) {
        self.kind = kind
        self.text = text
        self.alternateTexts = alternateTexts
        parsedJSON = json
    }

    private var parsedJSON: JSONNode??

    /// A string.
    package static func string(_ text: String) -> CredentialCandidate { CredentialCandidate(kind: .text, text: text) }

    /// Bytes: their UTF-8 text when they are text, else their printable ASCII runs (four bytes
    /// or more, each run a word of its own, as `strings(1)` finds them) with their base64 form
    /// as an alternate text.
    package static func bytes(_ bytes: [UInt8]) -> CredentialCandidate {
        if UTF8Validation.firstInvalidOffset(in: bytes) == nil {
            return CredentialCandidate(kind: .text, text: String(decoding: bytes, as: UTF8.self))
        }
        var runs: [String] = []
        var current: [UInt8] = []
        for byte in bytes {
            if byte >= 0x20, byte < 0x7F {
                current.append(byte)
            } else {
                if current.count >= 4 { runs.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
            }
        }
        if current.count >= 4 { runs.append(String(decoding: current, as: UTF8.self)) }
        return CredentialCandidate(kind: .binary, text: runs.joined(separator: "\n"), alternateTexts: [Data(bytes).base64EncodedString()])
    }

    /// A number, by its digits.
    package static func number(_ digits: String) -> CredentialCandidate { CredentialCandidate(kind: .number, text: digits) }

    /// A boolean.
    package static func boolean(_ value: Bool) -> CredentialCandidate { CredentialCandidate(kind: .boolean, text: value ? "true" : "false") }

    /// A date.
    package static var date: CredentialCandidate { CredentialCandidate(kind: .date, text: "") }

    /// Null.
    package static var null: CredentialCandidate { CredentialCandidate(kind: .null, text: "") }

    /// An array or object, by its JSON text.
    package static func structure(json: String) -> CredentialCandidate { CredentialCandidate(kind: .structure, text: json) }

    /// The JSON value of ``text`` when, after JSON white space, it starts with `{`, `[` or `"`;
    /// `nil` when it does not, or is not JSON. Parsed on first use; a lone surrogate escape (which
    /// JavaScript strings can hold) reads as U+FFFD.
    package var json: JSONNode? {
        if let parsed = parsedJSON { return parsed }
        let parsed = Self.parse(text)
        parsedJSON = .some(parsed)
        return parsed
    }

    private static func parse(_ text: String) -> JSONNode? {
        guard let first = text.utf8.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
        else { return nil }
        return try? JSONReader.parseDocument(text, loneSurrogates: .replace).root
    }

    /// Whether the kind can hold a credential named only by its key: not a boolean, a date or null.
    package var canHoldSecret: Bool {
        switch kind {
        case .boolean, .date, .null: return false
        default: return true
        }
    }
}
