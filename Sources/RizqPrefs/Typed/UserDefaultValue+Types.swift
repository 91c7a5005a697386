import Foundation

/// The types ``UserDefaultValue`` covers beyond ``PrefValueConvertible``: optionals, `UUID`,
/// sets, ranges, arrays and string-keyed dictionaries of them.
extension Optional: UserDefaultValue where Wrapped: UserDefaultValue {
    /// The wrapped type's value; `nil` (of another type) when it does not convert. A `null`
    /// inside an array or dictionary is a `nil` element.
    public static func fromStored(_ stored: PrefValue) -> Self? {
        if stored == .null { return .some(.none) }
        return Wrapped.fromStored(stored).map { .some($0) }
    }
    /// The wrapped value's stored form; `nil` removes the key (inside an array, `null`).
    public var storedValue: PrefValue? { self?.storedValue ?? nil }
}

extension PrefValue: UserDefaultValue {}

/// An optional enum whose raw values a suite stores (`ThemeMode?`), with no declaration: what
/// ``UserDefault`` and ``Key`` take for it. `nil` removes the key.
public protocol OptionalEnumValue {
    /// The enum.
    associatedtype Wrapped
}

extension Optional: OptionalEnumValue where Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultValue {}

extension Array: UserDefaultValue where Element: UserDefaultValue {
    /// A stored array whose every element is an `Element`.
    public static func fromStored(_ stored: PrefValue) -> Self? {
        guard case .array(let items) = stored else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element.fromStored(item) else { return nil }
            result.append(element)
        }
        return result
    }

    /// The elements' stored forms (`null` for a `nil` element).
    public var storedValue: PrefValue? { .array(map { $0.storedValue ?? .null }) }
}

extension Dictionary: UserDefaultValue where Key == String, Value: UserDefaultValue {
    /// A stored dictionary whose every value is a `Value`.
    public static func fromStored(_ stored: PrefValue) -> Self? {
        guard case .dictionary(let entries) = stored else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(entries.count)
        for (key, item) in entries {
            guard let value = Value.fromStored(item) else { return nil }
            result[key] = value
        }
        return result
    }

    /// The values' stored forms (`null` for a `nil` value).
    public var storedValue: PrefValue? { .dictionary(mapValues { $0.storedValue ?? .null }) }
}

extension Set: UserDefaultValue where Element: UserDefaultValue {
    /// A stored array whose every element is an `Element` (repeated elements count once).
    public static func fromStored(_ stored: PrefValue) -> Self? {
        [Element].fromStored(stored).map(Set.init)
    }

    /// An array, in the order of the elements' JSON text: the same set always writes the same
    /// file.
    public var storedValue: PrefValue? {
        let items = map { $0.storedValue ?? .null }
        return .array(items.map { ($0.description, $0) }.sorted { $0.0 < $1.0 }.map(\.1))
    }
}

extension UUID: UserDefaultValue {
    /// A stored string that is a UUID, in either case.
    public static func fromStored(_ stored: PrefValue) -> UUID? {
        guard case .string(let text) = stored else { return nil }
        return UUID(uuidString: text)
    }

    /// Its text, `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`.
    public var storedValue: PrefValue? { .string(uuidString) }
}

extension ClosedRange: UserDefaultValue where Bound: UserDefaultValue {
    /// A stored `[lowerBound, upperBound]` with `lowerBound <= upperBound`.
    public static func fromStored(_ stored: PrefValue) -> Self? {
        guard let bounds = RangeBounds<Bound>(stored), bounds.lower <= bounds.upper else { return nil }
        return bounds.lower...bounds.upper
    }

    /// `[lowerBound, upperBound]`.
    public var storedValue: PrefValue? { RangeBounds.stored(lowerBound, upperBound) }
}

extension Range: UserDefaultValue where Bound: UserDefaultValue {
    /// A stored `[lowerBound, upperBound]` with `lowerBound <= upperBound`.
    public static func fromStored(_ stored: PrefValue) -> Self? {
        guard let bounds = RangeBounds<Bound>(stored), bounds.lower <= bounds.upper else { return nil }
        return bounds.lower..<bounds.upper
    }

    /// `[lowerBound, upperBound]`.
    public var storedValue: PrefValue? { RangeBounds.stored(lowerBound, upperBound) }
}

/// The two bounds of a stored range, `[lower, upper]`.
private struct RangeBounds<Bound: UserDefaultValue> {
    var lower: Bound
    var upper: Bound

    init?(_ stored: PrefValue) {
        guard case .array(let items) = stored, items.count == 2,
            let lower = Bound.fromStored(items[0]), let upper = Bound.fromStored(items[1])
        else { return nil }
        (self.lower, self.upper) = (lower, upper)
    }

    static func stored(_ lower: Bound, _ upper: Bound) -> PrefValue? {
        guard let lower = lower.storedValue, let upper = upper.storedValue else { return nil }
        return .array([lower, upper])
    }
}
