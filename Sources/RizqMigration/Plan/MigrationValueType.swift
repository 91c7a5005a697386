import Foundation
import RizqPrefs

/// The type a plan rule gives a value, and how a `localStorage` string becomes it.
///
/// | type | accepts | stored as |
/// | --- | --- | --- |
/// | `bool` | `true`, `false`, `1`, `0` | `true` / `false` |
/// | `int` | an integer in the 64-bit range (`"42"`, `"-503"`, `"05"`) | an integer |
/// | `double` | a finite decimal number (`"0.5"`, `"1e3"`, `"42"`) | a double |
/// | `string` | anything, as is | a string |
/// | `date` | ISO 8601 (`2026-11-22T13:47:00.123Z`, `2026-11-22`) or epoch milliseconds (`1732283220123`) | `{"$date": …}` |
/// | `json` | any JSON text | nested JSON, ready for `@CodableUserDefault` |
///
/// A value that does not parse as its type stops the import before anything is written.
public enum MigrationValueType: String, Sendable, CaseIterable, Codable {
    /// `true`/`false`.
    case bool
    /// A 64-bit integer.
    case int
    /// A double.
    case double
    /// Text, unchanged.
    case string
    /// A point in time.
    case date
    /// A nested JSON value.
    case json

    /// Why a value does not convert; never holds the value itself.
    public struct ConversionFailure: Error, Sendable, Equatable {
        /// What was expected, e.g. "an integer in the 64-bit range".
        public var reason: String
    }

    /// The suite value for `text`, or `nil` for a `json` value that is `null` (nothing to store).
    /// - Throws: ``ConversionFailure`` when `text` is not a value of this type.
    public func convert(_ text: String) throws(ConversionFailure) -> PrefValue? {
        try convert(StoredValue(text))
    }

    /// ``convert(_:)`` of a value whose JSON the caller may look into as well.
    func convert(_ stored: StoredValue) throws(ConversionFailure) -> PrefValue? {
        let text = stored.text
        let trimmed = text.trimmingWhiteSpace
        switch self {
        case .bool:
            switch trimmed {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: throw ConversionFailure(reason: "expected true, false, 1 or 0")
            }
        case .int:
            guard let value = Int(trimmed) else { throw ConversionFailure(reason: "expected an integer in the 64-bit range") }
            return .int(value)
        case .double:
            guard Self.isDecimal(trimmed), let value = Double(trimmed), value.isFinite else {
                throw ConversionFailure(reason: "expected a finite decimal number")
            }
            return .double(value)
        case .string:
            return .string(text)
        case .date:
            guard let date = Self.date(from: Self.unquoted(trimmed)) else {
                throw ConversionFailure(reason: "expected an ISO 8601 date (2026-11-22T13:47:00Z) or epoch milliseconds")
            }
            guard PrefValue.date(date).isRepresentableInJSON else {
                throw ConversionFailure(reason: "the date lies outside the years -999999 to 999999 that a suite can hold; import it as a number (double) instead")
            }
            return .date(date)
        case .json:
            let node: JSONNode
            if let json = stored.json {
                node = json
            } else {
                do {
                    node = try JSONNode.parseWebJSON(text)
                } catch {
                    throw ConversionFailure(reason: "expected JSON text (\(error.fileReason) at byte \(error.offset))")
                }
            }
            if case .null = node.kind { return nil }
            guard let value = node.prefValue else { throw ConversionFailure(reason: "a number in the JSON is too large for a double") }
            return value
        }
    }

    /// The decimal grammar of JSON numbers: what a web app's `String(number)` writes. Rejects
    /// Swift-only spellings (`nan`, `inf`, `0x10`) that `Double(_:)` would take, and, unlike
    /// `rizq-prefs set --type double`, a leading `+`, which `String(number)` never writes.
    static func isDecimal(_ text: String) -> Bool {
        !text.hasPrefix("+") && PrefValueType.isDecimal(text)
    }

    /// A JSON string literal's content (`"\"2026-11-22\""` → `2026-11-22`), else the text.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""),
            let node = try? JSONNode.parseWebJSON(text), let inner = node.string
        else { return text }
        return inner
    }

    static func date(from text: String) -> Date? {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }), let milliseconds = Int64(text) {
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }
}
