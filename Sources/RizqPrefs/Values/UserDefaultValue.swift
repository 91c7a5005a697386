import Foundation

/// A type that ``UserDefault`` and ``Key`` hold natively: everything a suite stores
/// (every ``PrefValueConvertible`` type), `UUID`, `Set`s, `Range`s and `ClosedRange`s of these,
/// arrays and string-keyed dictionaries of any of them, their optionals, and `RawRepresentable`
/// types over them.
///
/// An enum with `String` or `Int` raw values needs no declaration for ``UserDefault`` and
/// ``Key`` (as `@AppStorage` takes any such enum). Declaring the conformance (one line; the
/// implementation comes for free) makes it usable inside arrays, sets and dictionaries too:
///
/// ```swift
/// enum ThemeMode: String, UserDefaultValue { case light, dark, system }
/// let recentThemes = Key("recent_themes", default: [ThemeMode]())
/// ```
///
/// How each is stored: a `UUID` as its text (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`), a `Set`
/// as an array (sorted, so that the file does not change when the set does not), a range as
/// `[lowerBound, upperBound]`, an enum as its raw value.
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

extension UserDefaultValue where Self: RawRepresentable, RawValue: UserDefaultValue {
    /// The case whose raw value is stored; `nil` for an unknown raw value.
    public static func fromStored(_ stored: PrefValue) -> Self? { RawValue.fromStored(stored).flatMap(Self.init(rawValue:)) }
    /// The raw value.
    public var storedValue: PrefValue? { rawValue.storedValue }
}
