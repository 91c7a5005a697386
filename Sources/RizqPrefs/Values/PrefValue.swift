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
/// | `.string("hi")` | `"hi"` |
/// | `.date(d)` | `{"$date": "2026-11-22T13:47:00.123456Z"}` |
/// | `.data(d)` | `{"$data": "AAEC/w=="}` (base64) |
/// | `.array`, `.dictionary` | JSON arrays and objects |
/// | `.null` | `null` (only nested: `nil` at the top level removes the key) |
///
/// Integers above `Int.max` (from `UInt64`) use `.unsigned`.
public enum PrefValue: Sendable, Hashable {
    /// `true` or `false`.
    case bool(Bool)
    /// A signed 64-bit integer.
    case int(Int)
    /// An unsigned integer above `Int.max`; smaller ones are `.int`.
    case unsigned(UInt64)
    /// A finite double. NaN and infinities cannot be stored.
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
    /// Non-finite doubles (NaN, ±infinity) cannot, nor dates beyond the years −999,999 to
    /// 999,999, nor a dictionary whose only key is `$date` or `$data` holding a valid payload
    /// (it would read back as a `Date` or `Data`).
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
