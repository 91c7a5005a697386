#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

/// How a value becomes an ``ImportValueType`` (the table on the type).
extension ImportValueType {
    /// Why a value does not convert; never holds the value itself.
    package struct ConversionFailure: Error, Sendable, Equatable {
        /// What was expected, e.g. "an integer in the 64-bit range".
        package var reason: String
    }

    /// The suite value for `text`, or `nil` for a `json` value that is `null` (nothing to store).
    /// - Throws: ``ConversionFailure`` when `text` is not a value of this type.
    package func convert(_ text: String) throws(ConversionFailure) -> PrefValue? {
        try convert(StoredValue(text))
    }

    /// ``convert(_:)`` of a value whose JSON the caller may look into as well.
    func convert(_ stored: StoredValue) throws(ConversionFailure) -> PrefValue? {
        if let typed = stored.typed, let converted = try convert(typed: typed, stored) { return converted }
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
        case .data:
            guard let data = Data(base64Encoded: trimmed) else { throw ConversionFailure(reason: "expected base64 text") }
            return .data(data)
        }
    }

    /// A typed value converted where nothing is lost; `nil` when the value is a string, which
    /// converts like a `localStorage` string.
    private func convert(typed: PrefValue, _ stored: StoredValue) throws(ConversionFailure) -> PrefValue? {
        if case .string = typed { return nil }
        let found = "found " + (typed.kindName == "dictionary" || typed.kindName == "array" ? "a " + typed.kindName : typed.kindName == "data" ? "data" : "a " + typed.kindName)
        switch (self, typed) {
        case (.bool, .bool), (.int, .int), (.double, .double), (.date, .date), (.data, .data):
            return typed
        case (.bool, .int(let number)) where number == 0 || number == 1:
            return .bool(number == 1)
        case (.int, .unsigned):
            throw ConversionFailure(reason: "expected an integer in the 64-bit range, found one above it")
        case (.int, .double(let number)):
            guard number.rounded() == number, let integer = Int(exactly: number) else {
                throw ConversionFailure(reason: "expected an integer, found a real with a fraction or beyond the 64-bit range")
            }
            return .int(integer)
        case (.double, .int(let number)):
            return .double(Double(number))
        case (.double, .unsigned(let number)):
            return .double(Double(number))
        case (.string, .bool), (.string, .int), (.string, .unsigned), (.string, .double):
            return .string(stored.text)
        case (.json, .data):
            guard let json = stored.codableJSON else { throw ConversionFailure(reason: "expected data holding JSON text, found other bytes") }
            return json
        case (.json, _):
            return typed
        default:
            throw ConversionFailure(reason: "expected \(expectation), \(found)")
        }
    }

    private var expectation: String {
        switch self {
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string, boolean or number"
        case .date: return "a date"
        case .json: return "JSON"
        case .data: return "data"
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
#endif
