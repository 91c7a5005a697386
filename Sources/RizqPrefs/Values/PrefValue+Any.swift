import Foundation

extension PrefValue {
    /// Converts a Foundation-style value (`Any`, as `UserDefaults.set(_:forKey:)` takes it).
    ///
    /// Accepts every ``PrefValueConvertible`` type, `NSNumber`, `NSNull`, and `[Any]` /
    /// `[String: Any]` of these. Returns `nil` for anything else (Foundation would crash with
    /// "Attempt to insert non-property list object").
    public init?(any value: Any) {
        switch value {
        case let direct as PrefValueConvertible: self = direct.prefValue
        case is NSNull: self = .null
        case let number as NSNumber:
            if number.objCType.pointee == CChar(UInt8(ascii: "c")), number.int8Value == 0 || number.int8Value == 1 {
                self = .bool(number.boolValue)
            } else if let integer = Int(exactly: number) {
                self = .int(integer)
            } else {
                self = .double(number.doubleValue)
            }
        case let items as [Any]:
            var converted: [PrefValue] = []
            converted.reserveCapacity(items.count)
            for item in items {
                guard let value = PrefValue(any: item) else { return nil }
                converted.append(value)
            }
            self = .array(converted)
        case let entries as [String: Any]:
            var converted: [String: PrefValue] = [:]
            converted.reserveCapacity(entries.count)
            for (key, item) in entries {
                guard let value = PrefValue(any: item) else { return nil }
                converted[key] = value
            }
            self = .dictionary(converted)
        default:
            return nil
        }
    }

    /// The value as Foundation-style Swift values: `Bool`, `Int`, `UInt64`, `Double`, `String`,
    /// `Data`, `Date`, `[Any]`, `[String: Any]`, and `NSNull` for a nested `null`.
    public var anyValue: Any {
        switch self {
        case .bool(let flag): return flag
        case .int(let number): return number
        case .unsigned(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .data(let bytes): return bytes
        case .date(let date): return date
        case .array(let items): return items.map(\.anyValue)
        case .dictionary(let entries): return entries.mapValues(\.anyValue)
        case .null: return NSNull()
        }
    }
}
