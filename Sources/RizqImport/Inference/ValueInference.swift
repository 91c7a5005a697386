#if Secrets
import RizqPrefs
import RizqJSON

/// The type of a `localStorage` string, guessed when no plan rule says: what `"true"`, `"42"`,
/// `"0.5"` and `"{…}"` were before the web app stringified them.
///
/// | value | becomes | rule |
/// | --- | --- | --- |
/// | `"true"`, `"false"` | bool | ``Rule/boolean`` |
/// | `"42"`, `"-503"` (canonical, up to 2^53 − 1 in size) | int | ``Rule/integer`` |
/// | `"05"`, `"-0"` | string | ``Rule/leadingZero`` |
/// | `"12345678901234567890"` (beyond 2^53 − 1, the largest integer a JavaScript number holds exactly) | string | ``Rule/idLikeDigits`` |
/// | `"0.5"`, `"1e3"` | double | ``Rule/decimal`` |
/// | `"{…}"`, `"[…]"` | nested JSON; JSON held in strings inside it is decoded too, three levels deep (redux-persist, zustand) | ``Rule/json`` |
/// | `"\"desktop\""` | string `desktop` (unwrapped once) | ``Rule/jsonStringLiteral`` |
/// | `""`, `"null"`, `"undefined"` | string, as is (they are real stored values) | ``Rule/storedAsIs`` |
/// | anything else | string | ``Rule/text`` |
///
/// A value from a property list already has its type and keeps it (``Rule/typed``): a string
/// stays a string even when it reads `"42"`. Only data whose bytes are JSON text, which is how
/// `JSONEncoder` (and so a `@CodableUserDefault`-style wrapper over `UserDefaults`) stores a
/// `Codable`, becomes that JSON (``Rule/codableData``), ready for `@CodableUserDefault`; other
/// data stays data.
package enum ValueInference {
    /// Which inference rule fired.
    package enum Rule: String, Sendable, Codable, CaseIterable {
        /// `"true"` / `"false"` → bool.
        case boolean
        /// A canonical integer → int.
        case integer
        /// Digits with a leading zero (or `-0`): an identifier or code → string.
        case leadingZero
        /// Digits beyond JavaScript's exact integers: an identifier → string.
        case idLikeDigits
        /// A decimal number → double.
        case decimal
        /// A JSON object or array → nested JSON.
        case json
        /// A JSON string literal → its content.
        case jsonStringLiteral
        /// `""`, `"null"`, `"undefined"` → string, unchanged.
        case storedAsIs
        /// Anything else → string.
        case text
        /// A property-list value → the same type.
        case typed
        /// Property-list data holding JSON text (a `JSONEncoder`-encoded `Codable`) → nested JSON.
        case codableData

        /// A phrase for the report: "\"true\"/\"false\" → bool".
        package var explanation: String {
            switch self {
            case .boolean: return "\"true\"/\"false\" → bool"
            case .integer: return "canonical integer → int"
            case .leadingZero: return "digits with a leading zero (a code, not a number) → string"
            case .idLikeDigits: return "digits beyond 2^53 (an ID, never a JavaScript number) → string"
            case .decimal: return "decimal number → double"
            case .json: return "JSON object or array → json"
            case .jsonStringLiteral: return "JSON string literal, unwrapped once → string"
            case .storedAsIs: return "\"\", \"null\" or \"undefined\" kept as the text it is → string"
            case .text: return "text → string"
            case .typed: return "property-list value, its type kept"
            case .codableData: return "data holding JSON text (a JSON-encoded Codable) → json"
            }
        }
    }

    /// A value and the rule that produced it.
    package struct Result: Sendable, Equatable {
        /// The suite value.
        package var value: PrefValue
        /// Which rule fired.
        package var rule: Rule
        /// How many JSON strings nested inside a JSON value were decoded.
        package var nestedDecoded: Int
    }

    /// The largest integer a JavaScript number holds exactly (2^53 − 1).
    package static let maximumSafeInteger = 9_007_199_254_740_991

    /// How many levels of JSON-in-a-string inside a JSON value are decoded.
    package static let nestedJSONLevels = 3

    /// The inferred value of a `localStorage` string.
    package static func infer(_ text: String) -> Result {
        infer(StoredValue(text))
    }

    /// ``infer(_:)`` of a value whose JSON the caller may look into as well.
    static func infer(_ stored: StoredValue) -> Result {
        if let typed = stored.typed {
            if let json = stored.codableJSON { return Result(value: json, rule: .codableData, nestedDecoded: 0) }
            return Result(value: typed, rule: .typed, nestedDecoded: 0)
        }
        let text = stored.text
        switch text {
        case "true": return Result(value: .bool(true), rule: .boolean, nestedDecoded: 0)
        case "false": return Result(value: .bool(false), rule: .boolean, nestedDecoded: 0)
        case "", "null", "undefined": return Result(value: .string(text), rule: .storedAsIs, nestedDecoded: 0)
        default: break
        }
        if let rule = integerRule(text) {
            if rule == .integer, let value = Int(text) { return Result(value: .int(value), rule: .integer, nestedDecoded: 0) }
            return Result(value: .string(text), rule: rule, nestedDecoded: 0)
        }
        if ImportValueType.isDecimal(text), let value = Double(text), value.isFinite {
            return Result(value: .double(value), rule: .decimal, nestedDecoded: 0)
        }
        if let first = text.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") {
            if let node = stored.json {
                if case .string(let inner) = node.kind {
                    return Result(value: .string(inner), rule: .jsonStringLiteral, nestedDecoded: 0)
                }
                var decoded = 0
                if let value = decodeNested(node, levels: nestedJSONLevels, decoded: &decoded).prefValue {
                    return Result(value: value, rule: .json, nestedDecoded: decoded)
                }
            }
        }
        return Result(value: .string(text), rule: .text, nestedDecoded: 0)
    }

    /// `.integer` for a canonical integer within JavaScript's exact range, `.leadingZero` or
    /// `.idLikeDigits` for digit strings that are not numbers, `nil` for anything else.
    static func integerRule(_ text: String) -> Rule? {
        let utf8 = text.utf8
        let digits = utf8.first == UInt8(ascii: "-") ? utf8.dropFirst() : utf8[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if digits.first == UInt8(ascii: "0"), digits.count > 1 || utf8.count != digits.count { return .leadingZero }
        guard digits.count <= 16, let value = Int(text), value.magnitude <= UInt(maximumSafeInteger) else { return .idLikeDigits }
        return .integer
    }

    /// `node` with strings that hold JSON objects or arrays replaced by their decoded value, up
    /// to `levels` deep. A redux-persist root (an object with `_persist`) stores every slice as
    /// a JSON string, so there every string member that is JSON is decoded, scalars included.
    static func decodeNested(_ node: JSONNode, levels: Int, decoded: inout Int) -> JSONNode {
        switch node.kind {
        case .object(let members):
            let isReduxPersist = members.contains { $0.key == "_persist" }
            let result = members.map { member in
                JSONNode.Member(key: member.key, keyOffset: member.keyOffset, value: decodeMember(member.value, levels: levels, anyKind: isReduxPersist, decoded: &decoded))
            }
            return JSONNode(kind: .object(result), range: node.range)
        case .array(let elements):
            let result = elements.map { decodeMember($0, levels: levels, anyKind: false, decoded: &decoded) }
            return JSONNode(kind: .array(result), range: node.range)
        default:
            return node
        }
    }

    private static func decodeMember(_ value: JSONNode, levels: Int, anyKind: Bool, decoded: inout Int) -> JSONNode {
        if levels > 0, let text = value.string, let inner = jsonInString(text, anyKind: anyKind) {
            decoded += 1
            return decodeNested(inner, levels: levels - 1, decoded: &decoded)
        }
        return decodeNested(value, levels: levels, decoded: &decoded)
    }

    /// The JSON a string holds: an object or array (or, with `anyKind`, any JSON value).
    private static func jsonInString(_ text: String, anyKind: Bool) -> JSONNode? {
        guard let first = StoredValue.firstByte(text) else { return nil }
        guard anyKind || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return try? JSONNode.parseWebJSON(text)
    }
}
#endif
