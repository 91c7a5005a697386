import Foundation

/// A Swift type that a suite stores natively: it converts to a ``PrefValue`` and back.
///
/// `Bool`, every integer type, `Double`, `Float`, `String`, `Data`, `Date`, `URL`, ``PrefValue``,
/// and arrays and string-keyed dictionaries of these conform. Conversions back are strict: a
/// stored `"42"` is not an `Int`, and an `Int` that does not fit an `Int8` is not an `Int8`.
/// Every such type is also a ``UserDefaultValue``, for ``UserDefault`` and ``Key``.
public protocol PrefValueConvertible: UserDefaultValue {
    /// The stored form of this value.
    var prefValue: PrefValue { get }
    /// The Swift value a stored value stands for, or `nil` when it is of another type.
    init?(prefValue: PrefValue)
}

extension PrefValue: PrefValueConvertible {
    /// The value itself.
    public var prefValue: PrefValue { self }
    /// The value itself.
    public init?(prefValue: PrefValue) { self = prefValue }
}

extension Bool: PrefValueConvertible {
    /// `.bool(self)`.
    public var prefValue: PrefValue { .bool(self) }
    /// A stored `.bool`.
    @inlinable
    public init?(prefValue: PrefValue) {
        guard case .bool(let flag) = prefValue else { return nil }
        self = flag
    }
}

extension String: PrefValueConvertible {
    /// `.string(self)`.
    public var prefValue: PrefValue { .string(self) }
    /// A stored `.string`.
    @inlinable
    public init?(prefValue: PrefValue) {
        guard case .string(let text) = prefValue else { return nil }
        self = text
    }
}

extension Double: PrefValueConvertible {
    /// `.double(self)`.
    public var prefValue: PrefValue { .double(self) }
    /// A stored `.double`, or an integer that converts to a `Double` exactly.
    @inlinable
    public init?(prefValue: PrefValue) {
        switch prefValue {
        case .double(let number): self = number
        case .int(let number): self.init(exactly: number)
        case .unsigned(let number): self.init(exactly: number)
        default: return nil
        }
    }
}

extension Float: PrefValueConvertible {
    /// Stored as the `Double` with the `Float`'s shortest decimal form (`0.1`, not
    /// `0.10000000149011612`), so the file stays readable and the `Float` reads back exactly.
    public var prefValue: PrefValue { .double(Double(description) ?? Double(self)) }
    /// A stored number, rounded to the nearest `Float`.
    public init?(prefValue: PrefValue) {
        guard let number = Double(prefValue: prefValue) else { return nil }
        self = Float(number)
    }
}

extension Data: PrefValueConvertible {
    /// `.data(self)`.
    public var prefValue: PrefValue { .data(self) }
    /// A stored `.data`.
    public init?(prefValue: PrefValue) {
        guard case .data(let bytes) = prefValue else { return nil }
        self = bytes
    }
}

extension Date: PrefValueConvertible {
    /// `.date(self)`.
    public var prefValue: PrefValue { .date(self) }
    /// A stored `.date`.
    public init?(prefValue: PrefValue) {
        guard case .date(let date) = prefValue else { return nil }
        self = date
    }
}

extension URL: PrefValueConvertible {
    /// Stored as its absolute string: `https://…` stays `https://…`, a file URL is `file:///…`.
    public var prefValue: PrefValue { .string(absoluteString) }
    /// A stored string with a scheme (`https://x`), or an absolute path or `~/…` (a file URL).
    public init?(prefValue: PrefValue) {
        guard case .string(let text) = prefValue, let url = URL.fromStoredText(text) else { return nil }
        self = url
    }

    static func fromStoredText(_ text: String) -> URL? {
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        if text.hasPrefix("~") { return URL(fileURLWithPath: NSString(string: text).expandingTildeInPath) }
        guard let url = URL(string: text), url.scheme != nil else { return nil }
        return url
    }
}

extension Array: PrefValueConvertible where Element: PrefValueConvertible {
    /// `.array` of the elements' stored forms.
    public var prefValue: PrefValue { .array(map(\.prefValue)) }
    /// A stored `.array` whose every element converts to `Element`.
    public init?(prefValue: PrefValue) {
        guard case .array(let items) = prefValue else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element(prefValue: item) else { return nil }
            result.append(element)
        }
        self = result
    }
}

extension Dictionary: PrefValueConvertible where Key == String, Value: PrefValueConvertible {
    /// `.dictionary` of the values' stored forms.
    public var prefValue: PrefValue { .dictionary(mapValues(\.prefValue)) }
    /// A stored `.dictionary` whose every value converts to `Value`.
    public init?(prefValue: PrefValue) {
        guard case .dictionary(let entries) = prefValue else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(entries.count)
        for (key, item) in entries {
            guard let value = Value(prefValue: item) else { return nil }
            result[key] = value
        }
        self = result
    }
}

/// The integer types share one conversion: stored as `.int` (or `.unsigned` above `Int.max`),
/// read back only when the stored integer fits.
public protocol PrefIntegerConvertible: PrefValueConvertible, FixedWidthInteger {}

extension PrefIntegerConvertible {
    /// `.int`, or `.unsigned` for values above `Int.max`.
    @inlinable
    public var prefValue: PrefValue {
        if let small = Int(exactly: self) { return .int(small) }
        return .unsigned(UInt64(truncatingIfNeeded: self))
    }

    /// A stored integer that fits this type; a double only when it is a whole number that fits.
    @inlinable
    public init?(prefValue: PrefValue) {
        switch prefValue {
        case .int(let number): self.init(exactly: number)
        case .unsigned(let number): self.init(exactly: number)
        case .double(let number): self.init(exactly: number)
        default: return nil
        }
    }
}

extension Int: PrefIntegerConvertible {}
extension Int8: PrefIntegerConvertible {}
extension Int16: PrefIntegerConvertible {}
extension Int32: PrefIntegerConvertible {}
extension Int64: PrefIntegerConvertible {}
extension UInt: PrefIntegerConvertible {}
extension UInt8: PrefIntegerConvertible {}
extension UInt16: PrefIntegerConvertible {}
extension UInt32: PrefIntegerConvertible {}
extension UInt64: PrefIntegerConvertible {}
