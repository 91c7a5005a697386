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
/// for await streak in Key.streak.changes { print(streak) }
/// ```
///
/// A stored value of the wrong type (or a `Codable` whose shape changed) reads as the default,
/// with one warning per key in the log, and stays stored until the app writes a new value.
public struct Key<Value: Sendable>: Sendable {
    /// The key's name in the suite.
    public let name: String
    /// What the key reads as when missing or unreadable.
    public let defaultValue: Value
    /// The suite the key lives in.
    public let store: SuiteStore
    let codec: PrefCodec<Value>
    private let cache = DecodedCache<Value>()

    init(name: String, defaultValue: Value, store: SuiteStore, codec: PrefCodec<Value>) {
        self.name = name
        self.defaultValue = defaultValue
        self.store = store
        self.codec = codec
    }

    /// A key for a natively stored type (see ``UserDefaultValue``).
    public init(_ name: String, default defaultValue: Value, store: SuiteStore = .standard) where Value: UserDefaultValue {
        self.init(name: name, defaultValue: defaultValue, store: store, codec: .native())
    }

    /// A key for any `Codable` type, stored as nested JSON.
    public init(codable name: String, default defaultValue: Value, store: SuiteStore = .standard) where Value: Codable {
        self.init(name: name, defaultValue: defaultValue, store: store, codec: .codable())
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
        let key = self
        // Subscribed here, not in the task: a change made right after this returns is delivered.
        let source = key.store.changes(forKey: key.name)
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
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

    func write(_ value: Value, to store: SuiteStore) {
        do {
            if let stored = try codec.encode(value) {
                try store.store(stored, forKey: name)
            } else {
                store.removeObject(forKey: name)
            }
        } catch {
            let message = (error as? SuiteStoreError)?.description ?? "cannot store key '\(name)': \(error); the stored value is unchanged"
            Logger.rizqPrefs.error("\(message)", metadata: ["suite": "\(store.suiteName)"])
        }
    }

    private func interpret(_ stored: PrefValue?, suite: String? = nil) -> Value {
        guard let stored else { return defaultValue }
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
}
