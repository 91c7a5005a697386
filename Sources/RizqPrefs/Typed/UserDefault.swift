import Logging

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
/// for await streak in settings.$currentStreak.changes(initial: true) { … }
/// ```
///
/// `Value` is any ``UserDefaultValue`` — `Bool`, integers, `Double`, `Float`, `String`, `Data`,
/// `Date`, `URL`, `UUID`, sets, ranges, arrays and dictionaries of these, their optionals (`nil`
/// removes the key) — or an enum with `String` or `Int` raw values, with no declaration (as
/// `@AppStorage` takes it). A stored value of another type reads as `defaultValue` (one warning
/// in the log) and is left as it is. For an app's key enum with the leading-dot form
/// (`@UserDefault(.currentStreak, …)`), see ``PreferenceWrapper``.
///
/// Inside an `@Observable` class, mark it `@ObservationIgnored`: the property then reports its
/// reads and changes to Observation itself, changes by other processes included.
@propertyWrapper
public struct UserDefault<Value: Sendable>: Sendable, PreferenceWrapper, ObservedPreference {
    /// The key, its default and its suite: `$property`.
    public let projectedValue: Key<Value>
    let observation = PreferenceObservation()

    private init(key: Key<Value>) {
        projectedValue = key
    }

    /// A property over a declared ``Key``: its name, default, suite, and what it says of itself
    /// (title, description, range or choices: ``Key/schema``), declared once.
    ///
    /// ```swift
    /// extension Key where Value == Int {
    ///     static let dailyGoal = Key("daily_goal", default: 3, title: "Daily goal", range: 1...20)
    /// }
    /// final class Settings { @UserDefault(.dailyGoal) var dailyGoal: Int }
    /// ```
    public init(_ key: Key<Value>) {
        projectedValue = key
    }

    /// A property stored under `key` in `store`.
    public init(_ key: String, defaultValue: Value, store: SuiteStore = .standard) where Value: UserDefaultValue {
        self.init(key: Key(key, default: defaultValue, store: store))
    }

    /// A property holding an enum (any `RawRepresentable` over a stored type), stored as its
    /// raw value; the enum needs no declaration.
    @_disfavoredOverload
    public init(_ key: String, defaultValue: Value, store: SuiteStore = .standard) where Value: RawRepresentable, Value.RawValue: UserDefaultValue {
        self.init(key: Key(key, default: defaultValue, store: store))
    }

    /// A property holding an optional enum; `nil` removes the key.
    @_disfavoredOverload
    public init(_ key: String, defaultValue: Value, store: SuiteStore = .standard) where Value: OptionalEnumValue {
        self.init(key: Key(key, default: defaultValue, store: store))
    }

    /// A property stored under `name` in `store`, for a `Value` that the compiler cannot check
    /// here (``PreferenceWrapper``'s one line): how to store it is chosen now — a
    /// ``UserDefaultValue``, an enum over one, or `Codable` — and any other type is refused with
    /// an error in the log (the property then always reads as `defaultValue`).
    public init(name: String, defaultValue: Value, store: SuiteStore = .standard) {
        guard let codec = PrefCodec<Value>.dynamic() else {
            Logger.rizqPrefs.error(
                "@UserDefault '\(name)': a suite cannot hold a value of type \(Value.self); make it Codable, an enum with String or Int raw values, or conform it to UserDefaultValue",
                metadata: ["suite": "\(store.suiteName)"])
            self.init(key: Key(name: name, defaultValue: defaultValue, store: store, codec: .refusing()))
            return
        }
        self.init(key: Key(name: name, defaultValue: defaultValue, store: store, codec: codec))
    }

    /// The form an app's own `UserDefault` extension used to forward to: it still works, choosing
    /// how to store `Value` when the property is created (see ``init(name:defaultValue:store:)``).
    @available(*, deprecated, message: "Value is not checked here; forward to init(name:defaultValue:store:), or declare the one-line PreferenceWrapper initializer for the key enum")
    @_disfavoredOverload
    public init(_ key: String, defaultValue: Value, store: SuiteStore = .standard) {
        self.init(name: key, defaultValue: defaultValue, store: store)
    }

    /// A property stored under `key.rawValue` (a `String` key enum) in `store`.
    public init<K: RawRepresentable>(_ key: K, defaultValue: Value, store: SuiteStore = .standard) where K.RawValue == String, Value: UserDefaultValue {
        self.init(key: Key(key.rawValue, default: defaultValue, store: store))
    }

    /// An enum property stored under `key.rawValue` (a `String` key enum) in `store`.
    @_disfavoredOverload
    public init<K: RawRepresentable>(_ key: K, defaultValue: Value, store: SuiteStore = .standard)
    where K.RawValue == String, Value: RawRepresentable, Value.RawValue: UserDefaultValue {
        self.init(key: Key(key.rawValue, default: defaultValue, store: store))
    }

    /// An optional enum property stored under `key.rawValue` (a `String` key enum) in `store`.
    @_disfavoredOverload
    public init<K: RawRepresentable>(_ key: K, defaultValue: Value, store: SuiteStore = .standard)
    where K.RawValue == String, Value: OptionalEnumValue {
        self.init(key: Key(key.rawValue, default: defaultValue, store: store))
    }

    /// The stored value, or the default (`ObservedPreference`).
    public var wrappedValue: Value { get { projectedValue.value } nonmutating set { projectedValue.value = newValue } }

    /// The property inside a class: reads and changes are reported to Observation when the class
    /// is `@Observable` (`ObservedPreference`, ``PreferenceObservation``).
    public static subscript<Enclosing: AnyObject>(_enclosingInstance instance: Enclosing, wrapped wrapped: ReferenceWritableKeyPath<Enclosing, Value>, storage storage: ReferenceWritableKeyPath<Enclosing, Self>) -> Value {
        get { observedValue(instance, wrapped, storage) } set { setObservedValue(newValue, instance, wrapped, storage) }
    }
}
