#if Secrets
import Foundation
import RizqJSON
import RizqCredentials
import RizqPrefs

/// A dump entry's value and the JSON it holds, parsed at most once however many rules look
/// into it: credential detection, inference and a plan's `json` type each used to parse a
/// redux-persist blob of their own.
///
/// A `localStorage` value is a string. A property-list value keeps its type in ``typed``; its
/// ``text`` is then what the rules that read text should see: the string itself, the UTF-8 text
/// of data (a token or a `Codable`'s JSON kept as bytes), or the value's JSON text.
final class StoredValue {
    /// The value, as `localStorage.getItem` returned it, or the text that stands for a typed value.
    let text: String
    /// The value with its type, for a source that keeps types; `nil` for `localStorage`.
    let typed: PrefValue?

    init(_ text: String) {
        self.text = text
        typed = nil
    }

    /// The value of `entry`, typed when the entry is.
    init(_ entry: ImportDump.Entry) {
        typed = entry.typedValue
        if case .data(let bytes)? = entry.typedValue, let utf8 = Self.utf8Text(bytes) {
            text = utf8
        } else {
            text = entry.value
        }
    }

    /// The JSON value of ``text`` when, after JSON white space, it starts with `{`, `[` or `"`;
    /// `nil` when it does not, or is not JSON. Parsed on first use.
    private(set) lazy var json: JSONNode? = {
        guard let first = Self.firstByte(text),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
        else { return nil }
        return try? JSONNode.parseWebJSON(text)
    }()

    /// The value as the credential rule judges it: a `localStorage` string as text; a typed
    /// value as suites' values are judged (``/RizqPrefs/PrefValue/credentialCandidate``), data
    /// that is text by that text. Shares ``json``, parsed once.
    private(set) lazy var candidate: CredentialCandidate = {
        switch typed {
        case nil, .string?:
            return CredentialCandidate(kind: .text, text: text, json: .some(json))
        case .data(let bytes)? where Self.utf8Text(bytes) != nil:
            return CredentialCandidate(kind: .text, text: text, json: .some(json))
        case let value?:
            return value.credentialCandidate
        }
    }()

    /// For typed data whose bytes are JSON text of any kind (what `JSONEncoder` writes for a
    /// `Codable`): that JSON as a suite value; `nil` for anything else (and for JSON `null`,
    /// which a suite key cannot hold). Lone surrogate escapes are refused, not replaced.
    private(set) lazy var codableJSON: PrefValue? = {
        guard case .data(let bytes)? = typed, let utf8 = Self.utf8Text(bytes), Self.firstByte(utf8) != nil,
            let node = try? JSONReader.parseDocument(utf8, loneSurrogates: .reject).root,
            let value = node.prefValue, value != .null
        else { return nil }
        return value
    }()

    /// The bytes a secret holds: the bytes of typed data, else the UTF-8 of ``text``; `isText`
    /// tells the Secret Service whether they are text.
    var secret: (bytes: Data, isText: Bool) {
        if case .data(let bytes)? = typed { return (bytes, Self.utf8Text(bytes) != nil) }
        return (Data(text.utf8), true)
    }

    /// What stands for "nothing": in a web app an empty string, `null` or `undefined`; in a
    /// property list an empty string or empty data. `nil` when the value holds something.
    var nothingName: String? {
        switch typed {
        case nil, .string?:
            if text.isEmpty { return "an empty string" }
            return text == "null" || text == "undefined" ? "\"\(text)\"" : nil
        case .data(let bytes)?:
            return bytes.isEmpty ? "empty data" : nil
        case .null?:
            return "null"
        default:
            return nil
        }
    }

    /// `bytes` as text when they are valid UTF-8, else `nil`.
    private static func utf8Text(_ bytes: Data) -> String? {
        let array = [UInt8](bytes)
        return UTF8Validation.firstInvalidOffset(in: array) == nil ? String(decoding: array, as: UTF8.self) : nil
    }

    /// The first byte of `text` that is not JSON white space (space, tab, line feed, carriage
    /// return), or `nil`.
    static func firstByte(_ text: String) -> UInt8? {
        text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }
    }
}
#endif
