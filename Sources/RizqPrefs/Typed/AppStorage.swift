/// SwiftUI's `@AppStorage` spelling, for code ported from Apple platforms (there is no SwiftUI on
/// Linux): the same initializers, over a suite.
///
/// ```swift
/// @AppStorage("streak", store: SuiteStore(suiteName: "group.com.rizq.app")) var streak = 0
/// @AppStorage("theme_mode") var themeMode: ThemeMode = .system      // any String/Int enum
/// @AppStorage("last_provider") var lastProvider: String?             // nil: not set
/// ```
///
/// `store: nil` (the default), like SwiftUI's, means the app's standard suite — and so does a
/// suite that could not be opened (`SuiteStore(suiteName:)` gave `nil`), as in SwiftUI. `Value`
/// is what ``UserDefault`` takes. `$property` is the ``Key`` (SwiftUI's is a `Binding`). Inside
/// an `@Observable` class, mark it `@ObservationIgnored` (see ``UserDefault``).
@propertyWrapper
public struct AppStorage<Value: Sendable>: Sendable, PreferenceWrapper, ObservedPreference {
    /// The key, its default and its suite: `$property`.
    public let projectedValue: Key<Value>
    let observation = PreferenceObservation()

    private init(key: Key<Value>) {
        projectedValue = key
    }

    /// A property over a declared ``Key``, as ``UserDefault/init(_:)`` takes one:
    /// `@AppStorage(.dailyGoal) var dailyGoal: Int`.
    public init(_ key: Key<Value>) {
        projectedValue = key
    }

    /// A property stored under `key` in `store` (default: the standard suite).
    public init(wrappedValue: Value, _ key: String, store: SuiteStore? = nil) where Value: UserDefaultValue {
        self.init(key: Key(key, default: wrappedValue, store: store ?? .standard))
    }

    /// An enum property (`String` or `Int` raw values, no declaration needed).
    @_disfavoredOverload
    public init(wrappedValue: Value, _ key: String, store: SuiteStore? = nil) where Value: RawRepresentable, Value.RawValue: UserDefaultValue {
        self.init(key: Key(key, default: wrappedValue, store: store ?? .standard))
    }

    /// An optional property that is `nil` while the key is not set.
    public init(_ key: String, store: SuiteStore? = nil) where Value: UserDefaultValue & ExpressibleByNilLiteral {
        self.init(key: Key(key, default: nil, store: store ?? .standard))
    }

    /// An optional enum property that is `nil` while the key is not set.
    @_disfavoredOverload
    public init(_ key: String, store: SuiteStore? = nil) where Value: OptionalEnumValue & ExpressibleByNilLiteral {
        self.init(key: Key(key, default: nil, store: store ?? .standard))
    }

    /// A property stored under `name` in `store` (``PreferenceWrapper``; see
    /// ``UserDefault/init(name:defaultValue:store:)``).
    public init(name: String, defaultValue: Value, store: SuiteStore) {
        self.init(key: UserDefault(name: name, defaultValue: defaultValue, store: store).projectedValue)
    }

    /// The stored value, or the default (`ObservedPreference`).
    public var wrappedValue: Value { get { projectedValue.value } nonmutating set { projectedValue.value = newValue } }

    /// The property inside a class: reads and changes are reported to Observation when the class
    /// is `@Observable` (`ObservedPreference`, ``PreferenceObservation``).
    public static subscript<Enclosing: AnyObject>(_enclosingInstance instance: Enclosing, wrapped wrapped: ReferenceWritableKeyPath<Enclosing, Value>, storage storage: ReferenceWritableKeyPath<Enclosing, Self>) -> Value {
        get { observedValue(instance, wrapped, storage) } set { setObservedValue(newValue, instance, wrapped, storage) }
    }
}
