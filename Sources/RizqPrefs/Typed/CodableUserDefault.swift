/// A property holding any `Codable` value, stored in the suite file as nested JSON that can be
/// read and edited by hand (not a base64 or string-escaped blob):
///
/// ```swift
/// struct UserPreferences: Codable, Sendable { var dailyGoal = 3 }
/// @CodableUserDefault("user_preferences", defaultValue: UserPreferences()) var preferences
/// ```
///
/// When the stored JSON does not decode (its shape changed between app versions), the
/// property reads as `defaultValue`, one warning is logged, and the stored JSON is left as it
/// is until the app writes a new value. An `Optional` value that is `nil` removes the key.
/// Inside an `@Observable` class, mark it `@ObservationIgnored` (see ``UserDefault``).
@propertyWrapper
public struct CodableUserDefault<Value: Codable & Sendable>: Sendable, PreferenceWrapper, ObservedPreference {
    /// The key, its default and its suite: `$property`.
    public let projectedValue: Key<Value>
    let observation = PreferenceObservation()

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
    public init(_ key: String, defaultValue: Value, store: SuiteStore = .standard) {
        projectedValue = Key(codable: key, default: defaultValue, store: store)
    }

    /// A property stored under `name` in `store` (``PreferenceWrapper``).
    public init(name: String, defaultValue: Value, store: SuiteStore = .standard) {
        self.init(name, defaultValue: defaultValue, store: store)
    }

    /// A property stored under `key.rawValue` (a `String` key enum) in `store`.
    public init<K: RawRepresentable>(_ key: K, defaultValue: Value, store: SuiteStore = .standard) where K.RawValue == String {
        self.init(key.rawValue, defaultValue: defaultValue, store: store)
    }

    /// The stored value, or the default (`ObservedPreference`).
    public var wrappedValue: Value { get { projectedValue.value } nonmutating set { projectedValue.value = newValue } }

    /// The property inside a class: reads and changes are reported to Observation when the class
    /// is `@Observable` (`ObservedPreference`, ``PreferenceObservation``).
    public static subscript<Enclosing: AnyObject>(_enclosingInstance instance: Enclosing, wrapped wrapped: ReferenceWritableKeyPath<Enclosing, Value>, storage storage: ReferenceWritableKeyPath<Enclosing, Self>) -> Value {
        get { observedValue(instance, wrapped, storage) } set { setObservedValue(newValue, instance, wrapped, storage) }
    }
}
