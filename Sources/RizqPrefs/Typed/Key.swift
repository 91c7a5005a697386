import Logging
import Synchronization

/// A typed key: a name, a default, and the suite it lives in, in the manner of
/// sindresorhus/Defaults. Also what `$name` of a ``UserDefault`` or ``CodableUserDefault`` is.
///
/// ```swift
/// extension Key where Value == Int {
///     static let streak = Key("current_streak", default: 0, store: .standard)
/// }
/// SuiteStore.standard[.streak] += 1
/// Key.streak.reset()
/// for await streak in Key.streak.changes(initial: true) { print(streak) }   // now, then each change
/// ```
///
/// As in Defaults, a key registers its default with its suite (``SuiteStore/register(defaults:)``),
/// so that the suite's untyped readers — `object(forKey:)`, `integer(forKey:)`,
/// `dictionaryRepresentation()` — see it too; nothing is written. Two keys are equal when they
/// name the same key of the same suite file.
///
/// A stored value of the wrong type (or a `Codable` whose shape changed) reads as the default,
/// with one warning per key in the log, and stays stored until the app writes a new value.
///
/// `sync: true` marks the key for device sync, as Defaults' `iCloud: true` does: RizqSync's
/// `DeviceSync` carries it to the user's other devices (``SuiteStore/keysMarkedForSync``).
/// Nothing is synced until sync is enabled for the suite; a key not marked never leaves the
/// machine.
public struct Key<Value: Sendable>: Sendable, Hashable, AnyPrefKey {
    /// The key's name in the suite.
    public let name: String
    /// What the key reads as when missing or unreadable.
    public let defaultValue: Value
    /// The suite the key lives in.
    public let store: SuiteStore
    /// Whether the key was marked `sync: true`: device sync carries it to the user's other devices.
    public let isSynced: Bool
    /// What the key is, for people and tools: its title, description, type, default, range or
    /// choices and deprecation note, as declared — one member of the suite's ``PrefSchema``
    /// (`PrefSchema(keys:)` collects them).
    public let schema: PrefSchema.Property
    /// The declared range or choices, when there are any: a value outside them is refused on
    /// write and reads as the default.
    let checks: PrefSchema.Property?
    let codec: PrefCodec<Value>
    private let cache = DecodedCache<Value>()

    init(name: String, defaultValue: Value, store: SuiteStore, codec: PrefCodec<Value>, sync: Bool = false, about: KeyAbout<Value> = KeyAbout()) {
        self.name = name
        self.defaultValue = defaultValue
        self.store = store
        self.codec = codec
        self.isSynced = sync
        schema = about.property(default: defaultValue, codec: codec)
        checks = schema.limitsValues ? schema : nil
        registerDefault()
        if sync { store.markForSync(name) }
    }

    /// A key for a natively stored type (see ``UserDefaultValue``): `Bool`, numbers, `String`,
    /// `Data`, `Date`, `URL`, `UUID`, sets, ranges, arrays and dictionaries of these, optionals.
    ///
    /// `title`, `description` and `deprecated` describe it (``schema``, `rizq-prefs describe`);
    /// `choices`, when given, are the only values it takes: any other is refused on write and
    /// reads as the default.
    public init(
        _ name: String, default defaultValue: Value, store: SuiteStore = .standard, sync: Bool = false, title: String? = nil,
        description: String? = nil, choices: [Value]? = nil, deprecated: String? = nil
    ) where Value: UserDefaultValue {
        self.init(
            name: name, defaultValue: defaultValue, store: store, codec: .native(), sync: sync,
            about: KeyAbout(title: title, description: description, deprecated: deprecated, choices: choices))
    }

    /// A key for a number (or any comparable stored type) that takes only the values in `range`:
    /// any other is refused on write (``put(_:)`` throws, `value`'s setter logs and drops it) and
    /// reads as the default (one warning in the log; the stored value stays).
    ///
    /// ```swift
    /// static let volume = Key("volume", default: 50, title: "Volume", range: 0...100)
    /// ```
    public init(
        _ name: String, default defaultValue: Value, store: SuiteStore = .standard, sync: Bool = false, title: String? = nil,
        description: String? = nil, range: ClosedRange<Value>, deprecated: String? = nil
    ) where Value: UserDefaultValue & Comparable {
        self.init(
            name: name, defaultValue: defaultValue, store: store, codec: .native(), sync: sync,
            about: KeyAbout(title: title, description: description, deprecated: deprecated, minimum: range.lowerBound, maximum: range.upperBound))
    }

    /// A key for an enum with `String` or `Int` raw values (any `RawRepresentable` over a stored
    /// type), with no declaration needed: stored as its raw value. When the enum is `CaseIterable`,
    /// its cases are the key's choices (``schema``): a raw value that names no case reads as the
    /// default, as before.
    @_disfavoredOverload
    public init(
        _ name: String, default defaultValue: Value, store: SuiteStore = .standard, sync: Bool = false, title: String? = nil,
        description: String? = nil, deprecated: String? = nil
    ) where Value: RawRepresentable, Value.RawValue: UserDefaultValue {
        self.init(
            name: name, defaultValue: defaultValue, store: store, codec: .rawRepresentable(), sync: sync,
            about: KeyAbout(title: title, description: description, deprecated: deprecated))
    }

    /// A key for an optional enum (see the initializer above); `nil` removes the key.
    @_disfavoredOverload
    public init(
        _ name: String, default defaultValue: Value, store: SuiteStore = .standard, sync: Bool = false, title: String? = nil,
        description: String? = nil, deprecated: String? = nil
    ) where Value: OptionalEnumValue {
        self.init(
            name: name, defaultValue: defaultValue, store: store, codec: PrefCodec.dynamic() ?? .refusing(), sync: sync,
            about: KeyAbout(title: title, description: description, deprecated: deprecated))
    }

    /// A key for any `Codable` type, stored as nested JSON.
    public init(
        codable name: String, default defaultValue: Value, store: SuiteStore = .standard, sync: Bool = false, title: String? = nil,
        description: String? = nil, deprecated: String? = nil
    ) where Value: Codable {
        self.init(
            name: name, defaultValue: defaultValue, store: store, codec: .codable(), sync: sync,
            about: KeyAbout(title: title, description: description, deprecated: deprecated))
    }

    /// Makes the default what the suite's untyped readers see while nothing is stored. A default
    /// that cannot be stored (`nil`, NaN) is not registered: those readers see nothing, as before.
    private func registerDefault() {
        guard let stored = try? codec.encode(defaultValue), stored.isRepresentableInJSON else { return }
        store.openSuite.memory.register([name: stored])
    }

    /// The value in the key's suite; setting it stores it (an `Optional` `nil` removes the key).
    public var value: Value {
        get { read(from: store) }
        nonmutating set { write(newValue, to: store) }
    }

    /// Removes the key, so that it reads as the default again.
    public func reset() {
        store.removeObject(forKey: name)
    }

    /// Every change of the key, as the value it now reads as (the default after a removal or
    /// an unreadable value), made in this process or another one.
    public var changes: AsyncStream<Value> {
        changes(initial: false)
    }

    /// ``changes``, starting with the value the key reads as now when `initial` is `true` (as
    /// Defaults' `updates(initial:)`): a model fed from it needs no separate first read.
    ///
    /// ```swift
    /// for await streak in settings.$currentStreak.changes(initial: true) { label.text = "\(streak)" }
    /// ```
    public func changes(initial: Bool) -> AsyncStream<Value> {
        let key = self
        // Subscribed here, not in the task: a change made right after this returns is delivered.
        let source = key.store.changes(forKey: key.name)
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        // Read after subscribing: a change made in between is yielded after this (maybe twice),
        // never lost.
        if initial { continuation.yield(key.value) }
        let task = Task {
            for await stored in source {
                continuation.yield(key.interpret(stored))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func read(from store: SuiteStore) -> Value {
        interpret(store.prefValue(forKey: name), suite: store.suiteName)
    }

    /// The non-throwing write (`value`'s setter, the property wrappers): what cannot be stored
    /// is logged and dropped; a forced key's value is written under the lock, as Foundation does
    /// (``SuiteStore/set(_:forKey:)-(Any?,_)``).
    func write(_ value: Value, to store: SuiteStore) {
        do {
            try write(value, to: store, refusingForced: false)
        } catch {
            Logger.rizqPrefs.error("\(error)", metadata: ["suite": "\(store.suiteName)"])
        }
    }

    /// Stores `value` in `store`, or removes the key when it encodes to nothing (`nil`).
    func write(_ value: Value, to store: SuiteStore, refusingForced: Bool) throws(SuiteStoreError) {
        let stored: PrefValue?
        do {
            stored = try codec.encode(value)
        } catch {
            throw .invalidValue(key: name, reason: "\(error)")
        }
        guard let stored else {
            if refusingForced { try store.checkLayers(nil, forKey: name) }
            store.removeObject(forKey: name)
            return
        }
        if let checks, let problem = checks.problem(with: stored) {
            throw .notAllowed(key: name, reason: problem + " (as the key is declared)")
        }
        try store.store(stored, forKey: name, refusingForced: refusingForced)
    }

    private func interpret(_ stored: PrefValue?, suite: String? = nil) -> Value {
        guard let stored else { return defaultValue }
        if let checks, !checks.accepts(stored) {
            let suite = suite ?? store.suiteName
            OnceWarnings.warn(
                "declared\u{0}\(suite)\u{0}\(name)",
                "stored value of key '\(name)' is not one the key takes (\(checks.allowed), as declared): using the default and leaving the stored value as it is until the app writes a new one",
                suite: suite)
            return defaultValue
        }
        if codec.caches, let hit = cache.value(for: stored) { return hit }
        do {
            let value = try codec.decode(stored)
            if codec.caches { cache.remember(stored, value) }
            return value
        } catch {
            TypedReadWarnings.warnOnce(suite: suite ?? store.suiteName, key: name, reason: "\(error)")
            return defaultValue
        }
    }
}

extension Key where Value: Equatable {
    /// Whether the key reads as its default (nothing stored, or the default stored).
    public var isDefaultValue: Bool {
        value == defaultValue
    }
}

extension Key {
    /// Equal when both name the same key of the same suite file (whatever their defaults).
    public static func == (lhs: Key, rhs: Key) -> Bool {
        lhs.name == rhs.name && lhs.store.location.path == rhs.store.location.path
    }

    /// Hashes the name and the suite file.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(store.location.path)
    }
}

/// Any ``Key``, whatever its value type: for `SuiteStore.reset(_:)` and `PrefSchema(keys:)`.
public protocol AnyPrefKey: Sendable {
    /// The key's name in the suite.
    var name: String { get }
    /// What the key is (``Key/schema``).
    var schema: PrefSchema.Property { get }
}

extension AnyPrefKey {
    /// Nothing declared: a key that says only its name.
    public var schema: PrefSchema.Property { PrefSchema.Property() }
}

/// The last decoded value and the stored value it came from.
private final class DecodedCache<Value: Sendable>: Sendable {
    private let last = Mutex<(stored: PrefValue, value: Value)?>(nil)

    func value(for stored: PrefValue) -> Value? {
        last.withLock { entry in entry.flatMap { $0.stored == stored ? $0.value : nil } }
    }

    func remember(_ stored: PrefValue, _ value: Value) {
        last.withLock { $0 = (stored, value) }
    }
}

extension SuiteStore {
    /// The key's value in this suite (whatever suite the key names).
    public subscript<Value>(key: Key<Value>) -> Value {
        get { key.read(from: self) }
        set { key.write(newValue, to: self) }
    }

    /// Removes the keys from this suite at once (one change for other processes), so that each
    /// reads as its default again, as Defaults' `reset(_:)`:
    ///
    /// ```swift
    /// SuiteStore.standard.reset(settings.$currentStreak, settings.$themeMode, .lastSync)
    /// ```
    public func reset(_ keys: any AnyPrefKey...) {
        reset(keys)
    }

    /// Removes the keys from this suite at once.
    public func reset(_ keys: [any AnyPrefKey]) {
        batch { batch in
            for key in keys { batch.removeObject(forKey: key.name) }
        }
    }

    /// Removes every key of this suite: the app's reset of its standard suite, where on Apple
    /// platforms it would write `removePersistentDomain(forName: Bundle.main.bundleIdentifier!)`
    /// (on Linux an executable has no bundle identifier: that line would crash). Registered
    /// defaults and volatile domains stay.
    public func removeAll() {
        removePersistentDomain(forName: suiteName)
    }
}
