/// What ``UserDefault``, ``CodableUserDefault`` and ``AppStorage`` share: an initializer from a
/// key name, so that one line lets an app keep the leading-dot key form of code written for
/// Apple platforms, `@UserDefault(.currentStreak, defaultValue: 0)`, for every wrapper at once:
///
/// ```swift
/// enum UserDefaultsKey: String { case currentStreak = "current_streak", themeMode = "theme_mode" }
///
/// // The one line (the app's own key enum, for every wrapper):
/// extension PreferenceWrapper { init(_ key: UserDefaultsKey, defaultValue: Value, store: SuiteStore = .standard) { self.init(name: key.rawValue, defaultValue: defaultValue, store: store) } }
///
/// @UserDefault(.currentStreak, defaultValue: 0) var currentStreak: Int
/// @UserDefault(.themeMode, defaultValue: ThemeMode.system) var themeMode: ThemeMode
/// @CodableUserDefault(.userPreferences, defaultValue: UserPreferences()) var preferences
/// ```
///
/// Swift finds `.currentStreak` only through a parameter of the key enum's own type, which a
/// library cannot name: hence the line in the app. Through it, ``UserDefault`` chooses how to
/// store `Value` when the property is created — a stored type (``UserDefaultValue``), an enum
/// over one, or else `Codable` — and a value of any other type is refused then, with an error in
/// the log.
public protocol PreferenceWrapper {
    /// The property's type.
    associatedtype Value
    /// A property stored under `name` in `store`.
    init(name: String, defaultValue: Value, store: SuiteStore)
}
