import Foundation
import RizqJSON

/// The type a value given as text should be stored as: what `rizq-prefs set --type` and
/// `defaults write -int` choose.
///
/// | type | accepts | stored as |
/// | --- | --- | --- |
/// | `bool` | `true`/`false`, `yes`/`no`, `1`/`0` (any case) | `true` / `false` |
/// | `int` | a whole number in the 64-bit range: `42`, `-7`, `+3` | an integer |
/// | `double` | a finite decimal number: `0.5`, `1e-3`, `42` | a double (`42.0`) |
/// | `string` | anything, unchanged | a string |
/// | `date` | ISO 8601 (`2026-11-22T13:47:00.123Z`, `2026-11-22T15:47:00+02:00`, `2026-11-22`), or `@SECONDS` since 1970 as `date -d @…` takes | `{"$date": …}` |
/// | `data` | base64 (`AAEC/w==`) | `{"$data": …}` |
/// | `json` | any JSON value but `null`, including the tagged forms | nested JSON |
///
/// ```swift
/// let value = try PrefValueType.int.parse("42")     // .int(42)
/// ```
package enum PrefValueType: String, Sendable, CaseIterable {
    /// `true` or `false`.
    case bool
    /// A signed 64-bit integer.
    case int
    /// A finite double.
    case double
    /// Text, unchanged.
    case string
    /// A point in time.
    case date
    /// Bytes, given as base64.
    case data
    /// Any JSON value.
    case json

    /// The value `text` stands for as this type.
    /// - Throws: ``PrefValueParseError`` saying what this type accepts.
    public func parse(_ text: String) throws(PrefValueParseError) -> PrefValue {
        switch self {
        case .string:
            return .string(text)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw failure(text)
            }
        case .int:
            guard let value = Int(text) else { throw failure(text) }
            return .int(value)
        case .double:
            guard Self.isDecimal(text), let value = Double(text), value.isFinite else { throw failure(text) }
            return .double(value)
        case .date:
            if text.hasPrefix("@"), let seconds = Double(text.dropFirst()), seconds.isFinite, Self.isDecimal(String(text.dropFirst())) {
                return .date(Date(timeIntervalSince1970: seconds))
            }
            if let date = ISO8601Micro.parse(text) ?? ISO8601Micro.parse(text + "T00:00:00Z") { return .date(date) }
            throw failure(text)
        case .data:
            guard let data = Data(base64Encoded: text) else { throw failure(text) }
            return .data(data)
        case .json:
            let value: PrefValue
            do {
                value = try JSONReader.parse(text)
            } catch {
                throw PrefValueParseError(type: self, text: text, reason: "it is not valid JSON (\(error))")
            }
            if value == .null { throw PrefValueParseError(type: self, text: text, reason: "null cannot be stored; delete the key instead") }
            return value
        }
    }

    /// What this type accepts, for messages and help.
    public var accepted: String {
        switch self {
        case .bool: return "true, false, yes, no, 1 or 0"
        case .int: return "a whole number from \(Int.min) to \(Int.max)"
        case .double: return "a finite decimal number such as 0.5 or 1e-3"
        case .string: return "any text"
        case .date: return "an ISO 8601 date such as 2026-11-22T13:47:00Z or 2026-11-22, or @SECONDS since 1970"
        case .data: return "base64, such as AAEC/w=="
        case .json: return "a JSON value other than null, such as {\"a\": 1} or [1, 2]"
        }
    }

    private func failure(_ text: String) -> PrefValueParseError {
        PrefValueParseError(type: self, text: text, reason: "expected \(accepted)")
    }

    /// The grammar of JSON numbers (and a leading `+`), so that Swift-only spellings (`nan`,
    /// `inf`, `0x10`) are refused. Package-wide: the importer reads numbers by the same grammar.
    package static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        guard digits() > 0 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

/// Text that does not parse as the ``PrefValueType`` asked for.
package struct PrefValueParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The type asked for.
    public var type: PrefValueType
    /// The text given.
    public var text: String
    /// What was wrong, and what the type accepts.
    public var reason: String

    /// Creates the error.
    public init(type: PrefValueType, text: String, reason: String) {
        self.type = type
        self.text = text
        self.reason = reason
    }

    /// One line: the text (shortened), the type, and what it accepts.
    public var description: String {
        let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return "'\(shown)' is not a valid \(type.rawValue): \(reason)"
    }
}
