/// A property backed by a suite key, with the shape of the property wrapper that apps written
/// for Apple platforms use:
///
/// ```swift
/// final class AppSettings {
///     @UserDefault("current_streak", defaultValue: 0) var currentStreak: Int
///     @UserDefault(UserDefaultsKey.themeMode, defaultValue: ThemeMode.system) var themeMode
///     @UserDefault("last_sync_timestamp", defaultValue: nil, store: shared) var lastSync: Date?
/// }
/// settings.$currentStreak.reset()
/// for await streak in settings.$currentStreak.changes { … }
/// ```
///
/// `Value` is any ``UserDefaultValue``: `Bool`, integers, `Double`, `Float`, `String`, `Data`,
/// `Date`, `URL`, arrays and dictionaries of these, their optionals (`nil` removes the key),
/// and `RawRepresentable` enums that declare `UserDefaultValue`. A stored value of another type
/// reads as `defaultValue` (one warning in the log) and is left as it is.
@propertyWrapper
public struct UserDefault<Value: UserDefaultValue>: Sendable {
    /// The key, its default and its suite: `$property`.
    public let projectedValue: Key<Value>

    /// A property stored under `key` in `store`.
    public init(_ key: String, defaultValue: Value, store: SuiteStore = .standard) {
        projectedValue = Key(key, default: defaultValue, store: store)
    }

    /// A property stored under `key.rawValue` (a `String` key enum) in `store`.
    public init<K: RawRepresentable>(_ key: K, defaultValue: Value, store: SuiteStore = .standard) where K.RawValue == String {
        self.init(key.rawValue, defaultValue: defaultValue, store: store)
    }

    /// The stored value, or the default.
    public var wrappedValue: Value {
        get { projectedValue.value }
        nonmutating set { projectedValue.value = newValue }
    }
}
