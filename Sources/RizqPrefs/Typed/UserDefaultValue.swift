import Foundation

/// A type that ``UserDefault`` can hold: everything a suite stores natively, optionals of
/// those, and `RawRepresentable` types over them.
///
/// The standard types conform already. For an enum, declare the conformance; the
/// implementation comes for free:
///
/// ```swift
/// enum ThemeMode: String, UserDefaultValue { case light, dark, system }
/// @UserDefault("theme_mode", defaultValue: ThemeMode.system) var themeMode
/// ```
public protocol UserDefaultValue: Sendable {
    /// The value a stored value stands for, or `nil` when it is of another type.
    static func fromStored(_ stored: PrefValue) -> Self?
    /// What to store; `nil` removes the key (an `Optional` that is `nil`).
    var storedValue: PrefValue? { get }
}

extension UserDefaultValue where Self: PrefValueConvertible {
    /// ``PrefValueConvertible/init(prefValue:)``.
    public static func fromStored(_ stored: PrefValue) -> Self? { Self(prefValue: stored) }
    /// ``PrefValueConvertible/prefValue``.
    public var storedValue: PrefValue? { prefValue }
}

extension UserDefaultValue where Self: RawRepresentable, RawValue: PrefValueConvertible {
    /// The case whose raw value is stored; `nil` for an unknown raw value.
    public static func fromStored(_ stored: PrefValue) -> Self? { RawValue(prefValue: stored).flatMap(Self.init(rawValue:)) }
    /// The raw value.
    public var storedValue: PrefValue? { rawValue.prefValue }
}

extension Optional: UserDefaultValue where Wrapped: UserDefaultValue {
    /// The wrapped type's value; `nil` (of another type) when it does not convert.
    public static func fromStored(_ stored: PrefValue) -> Self? { Wrapped.fromStored(stored).map { .some($0) } }
    /// The wrapped value's stored form; `nil` removes the key.
    public var storedValue: PrefValue? { self?.storedValue ?? nil }
}

extension Bool: UserDefaultValue {}
extension Int: UserDefaultValue {}
extension Int8: UserDefaultValue {}
extension Int16: UserDefaultValue {}
extension Int32: UserDefaultValue {}
extension Int64: UserDefaultValue {}
extension UInt: UserDefaultValue {}
extension UInt8: UserDefaultValue {}
extension UInt16: UserDefaultValue {}
extension UInt32: UserDefaultValue {}
extension UInt64: UserDefaultValue {}
extension Double: UserDefaultValue {}
extension Float: UserDefaultValue {}
extension String: UserDefaultValue {}
extension Data: UserDefaultValue {}
extension Date: UserDefaultValue {}
extension URL: UserDefaultValue {}
extension PrefValue: UserDefaultValue {}
extension Array: UserDefaultValue where Element: PrefValueConvertible {}
extension Dictionary: UserDefaultValue where Key == String, Value: PrefValueConvertible {}
