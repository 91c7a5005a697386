import Foundation

/// One value stored in a suite: the JSON value model of RizqPrefs.
///
/// Every value a ``SuiteStore`` holds is one of these cases. They map one to one onto the suite
/// file's JSON, with two tagged objects for the types JSON lacks:
///
/// | case | in the file |
/// | --- | --- |
/// | `.bool(true)` | `true` |
/// | `.int(42)` | `42` |
/// | `.double(1.0)` | `1.0` (always with a `.` or an exponent, so it reads back as a `Double`) |
/// | `.double(.infinity)`, `-.infinity`, `.nan` | `{"$double": "inf"}`, `{"$double": "-inf"}`, `{"$double": "nan"}` |
/// | `.string("hi")` | `"hi"` |
/// | `.date(d)` | `{"$date": "2026-11-22T13:47:00.123456Z"}` |
/// | `.data(d)` | `{"$data": "AAEC/w=="}` (base64) |
/// | `.array`, `.dictionary` | JSON arrays and objects |
/// | `.null` | `null` (only nested: `nil` at the top level removes the key) |
///
/// Integers above `Int.max` (from `UInt64`) use `.unsigned`.
///
/// Two values are equal when they hold the same thing; a NaN equals any NaN (it is one stored
/// value, `{"$double": "nan"}`), and `0.0` equals `-0.0`, as `Double`'s own `==` has it.
public enum PrefValue: Sendable, Hashable {
    /// `true` or `false`.
    case bool(Bool)
    /// A signed 64-bit integer.
    case int(Int)
    /// An unsigned integer above `Int.max`; smaller ones are `.int`.
    case unsigned(UInt64)
    /// A double. Finite ones are JSON numbers; infinities and NaN use the tag `$double` (a NaN
    /// reads back as `Double.nan`: its sign and payload bits are not kept, as in Foundation's
    /// property lists).
    case double(Double)
    /// A string of any Unicode.
    case string(String)
    /// Raw bytes, stored as base64 under the tag `$data`.
    case data(Data)
    /// A point in time, stored as ISO 8601 with microseconds under the tag `$date`.
    case date(Date)
    /// An ordered list of values.
    case array([PrefValue])
    /// A JSON object; keys are free text.
    case dictionary([String: PrefValue])
    /// JSON `null`, as found inside nested values.
    case null
}

extension PrefValue {
    /// Whether this value, and everything nested in it, can be written to a suite file and
    /// read back as itself.
    ///
    /// A value nested deeper than ``maximumNesting`` cannot (the reader would refuse the file),
    /// nor dates beyond the years −999,999 to 999,999, nor a dictionary whose only key is
    /// `$date`, `$data` or `$double` holding a valid payload (it would read back as a `Date`,
    /// `Data` or `Double`). Infinities and NaN can (tagged, as `{"$double": "inf"}`).
    public var isRepresentableInJSON: Bool {
        storageProblem() == nil
    }

    /// A short name of the value's kind, for messages: `bool`, `int`, `double`, `string`, ….
    public var kindName: String {
        switch self {
        case .bool: return "bool"
        case .int, .unsigned: return "int"
        case .double: return "double"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .null: return "null"
        }
    }
}

extension PrefValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates `.array`.
    public init(arrayLiteral elements: PrefValue...) { self = .array(elements) }
    /// Creates `.dictionary`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PrefValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PrefValue {
    /// Equal when both hold the same thing (see the type's documentation: NaN equals NaN).
    public static func == (left: PrefValue, right: PrefValue) -> Bool {
        switch (left, right) {
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// Hashes what `==` compares: every NaN alike.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .bool(let flag):
            hasher.combine(0 as UInt8)
            hasher.combine(flag)
        case .int(let number):
            hasher.combine(1 as UInt8)
            hasher.combine(number)
        case .unsigned(let number):
            hasher.combine(2 as UInt8)
            hasher.combine(number)
        case .double(let number):
            hasher.combine(3 as UInt8)
            if number.isNaN { hasher.combine(Double.nan.bitPattern) } else { hasher.combine(number) }
        case .string(let text):
            hasher.combine(4 as UInt8)
            hasher.combine(text)
        case .data(let bytes):
            hasher.combine(5 as UInt8)
            hasher.combine(bytes)
        case .date(let date):
            hasher.combine(6 as UInt8)
            hasher.combine(date)
        case .array(let items):
            hasher.combine(7 as UInt8)
            hasher.combine(items)
        case .dictionary(let entries):
            hasher.combine(8 as UInt8)
            hasher.combine(entries)
        case .null:
            hasher.combine(9 as UInt8)
        }
    }
}
