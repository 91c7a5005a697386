import Foundation
import Logging
import RizqPrefs
import Synchronization

/// Apple's `NSUbiquitousKeyValueStore`, with its names and behaviour, over device sync: code
/// shared with iOS keeps its key-value-store calls on Linux, and the values follow the user's
/// devices through Syncthing (or any folder-sync engine) instead of iCloud.
///
/// ```swift
/// let store = UbiquitousKeyValueStore.default
/// store.set("dark", forKey: "theme")
/// NotificationCenter.default.addObserver(
///     forName: UbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
/// ) { note in
///     let keys = note.userInfo?[UbiquitousKeyValueStore.changedKeysKey] as? [String] ?? []
///     let reason = note.userInfo?[UbiquitousKeyValueStore.changeReasonKey] as? Int
///     // 0 server change, 1 initial sync, 2 quota violation, 3 account change
/// }
/// ```
///
/// As on iOS: values live locally first and reads never wait; ``set(_:forKey:)-(Any?,_)``
/// never throws — a write beyond the limits (``SyncLimits/apple``) is not made and posts
/// the quota-violation reason; ``synchronize()`` is cheap and says whether sync works. The
/// notification carries the changed keys and one of the four reasons, with Apple's `userInfo`
/// keys. Every key set through the store is synced (it joins the suite's listed keys). Beyond
/// Apple: ``put(_:forKey:)`` throws why a write was refused, ``events`` is a Swift stream, and
/// ``status`` says where sync stands. Unlike iCloud, a value that looks like a credential is
/// refused (logged by ``set(_:forKey:)-(Any?,_)``, thrown by ``put(_:forKey:)``): keep
/// secrets in a `SecretStore`.
public final class UbiquitousKeyValueStore: Sendable {
    /// Posted (on a queue of the store's own) when other devices' changes reached this store,
    /// when the initial sync completed, when a write exceeded the limits, or after an account
    /// change; `object` is the store. Apple's name.
    public static let didChangeExternallyNotification = Notification.Name("NSUbiquitousKeyValueStoreDidChangeExternallyNotification")
    /// The `userInfo` key of the change's reason, an `Int` (``ChangeReason``'s raw value). Apple's key.
    public static let changeReasonKey = "NSUbiquitousKeyValueStoreChangeReasonKey"
    /// The `userInfo` key of the changed keys, a `[String]`. Apple's key.
    public static let changedKeysKey = "NSUbiquitousKeyValueStoreChangedKeysKey"

    /// Why keys changed (Apple's four reasons, with their numbers).
    public typealias ChangeReason = SyncChangeReason

    /// The suite the values live in.
    public let store: SuiteStore
    /// The device sync behind the store; `nil` for a store that is not synced (then, as on a
    /// device signed out of iCloud, values stay local and ``synchronize()`` says `false`).
    public let sync: DeviceSync?
    private let listener: UInt64?
    private let notifications = DispatchQueue(label: "rizq-prefs.ubiquitous-kvs.notifications")
    private static let logger = Logger(label: "rizq-prefs.sync")
    private static let defaults = Mutex<[String: UbiquitousKeyValueStore]>([:])

    /// The store over `sync`'s suite. Start the sync (``DeviceSync/start()``) for it to merge and
    /// publish by itself; ``default`` does.
    public init(sync: DeviceSync) {
        store = sync.store
        self.sync = sync
        let queue = notifications
        let box = WeakStore()
        listener = sync.hub.listen { event in
            guard let (keys, reason) = Self.notification(for: event) else { return }
            queue.async {
                guard let store = box.store else { return }
                store.post(keys: keys, reason: reason)
            }
        }
        box.store = self
    }

    /// A store over `store` that is not synced: the state of an iOS device without an iCloud
    /// account. Every key of the suite is a key of the store.
    public init(localOnly store: SuiteStore) {
        self.store = store
        sync = nil
        listener = nil
    }

    deinit {
        if let listener { sync?.hub.remove(listener) }
    }

    /// The app's store: over the standard suite (``/RizqPrefs/SuiteStore/standard``), synced and
    /// started when `rizq-prefs sync enable` (or ``RizqPrefs/SuiteStore/enableDeviceSync(_:replicaID:)``)
    /// enabled sync for it, else local only. Apple's `NSUbiquitousKeyValueStore.default`.
    public static var `default`: UbiquitousKeyValueStore {
        let standard = SuiteStore.standard
        let key = standard.location.path
        if let cached = defaults.withLock({ $0[key] }) { return cached }
        let made: UbiquitousKeyValueStore
        do {
            if let sync = try standard.deviceSync() {
                sync.start()
                made = UbiquitousKeyValueStore(sync: sync)
            } else {
                made = UbiquitousKeyValueStore(localOnly: standard)
            }
        } catch {
            logger.error("device sync of the standard suite cannot start (\(error)); the key-value store stays local")
            made = UbiquitousKeyValueStore(localOnly: standard)
        }
        return defaults.withLock { table in
            if let raced = table[key] { return raced }
            table[key] = made
            return made
        }
    }

    // MARK: Reading (Apple's getters)

    /// The value, as a Foundation-style object (`String`, `NSNumber`-like numbers, `Data`,
    /// `[Any]`, `[String: Any]`, `Date`); `nil` when missing.
    public func object(forKey key: String) -> Any? {
        stored(key)?.anyValue
    }

    /// The string, or `nil` when missing or not a string.
    public func string(forKey key: String) -> String? {
        stored(key).flatMap { String(prefValue: $0) }
    }

    /// The array, or `nil`.
    public func array(forKey key: String) -> [Any]? {
        guard case .array = stored(key) else { return nil }
        return stored(key)?.anyValue as? [Any]
    }

    /// The dictionary, or `nil`.
    public func dictionary(forKey key: String) -> [String: Any]? {
        guard case .dictionary = stored(key) else { return nil }
        return stored(key)?.anyValue as? [String: Any]
    }

    /// The data, or `nil`.
    public func data(forKey key: String) -> Data? {
        stored(key).flatMap { Data(prefValue: $0) }
    }

    /// The integer; 0 when missing or not a number (Apple's `longLong(forKey:)`).
    public func longLong(forKey key: String) -> Int64 {
        switch stored(key) {
        case .int(let value)?: return Int64(value)
        case .double(let value)?: return Int64(exactly: value.rounded(.towardZero)) ?? 0
        case .bool(let value)?: return value ? 1 : 0
        default: return 0
        }
    }

    /// The number as a `Double`; 0 when missing or not a number.
    public func double(forKey key: String) -> Double {
        switch stored(key) {
        case .double(let value)?: return value
        case .int(let value)?: return Double(value)
        case .bool(let value)?: return value ? 1 : 0
        default: return 0
        }
    }

    /// The Boolean; `false` when missing (a number is `true` when not 0).
    public func bool(forKey key: String) -> Bool {
        switch stored(key) {
        case .bool(let value)?: return value
        case .int(let value)?: return value != 0
        case .double(let value)?: return value != 0
        default: return false
        }
    }

    /// Every key of the store and its value (Apple's property of the same name).
    public var dictionaryRepresentation: [String: Any] {
        let entries = store.entries
        guard let sync else { return entries.mapValues(\.anyValue) }
        let keys = (try? sync.syncedKeys) ?? []
        var result: [String: Any] = [:]
        for key in keys {
            if let value = entries[key] { result[key] = value.anyValue }
        }
        return result
    }

    private func stored(_ key: String) -> PrefValue? {
        // Only what was stored: a registered default is not a value of the store.
        store.entries[key]
    }

    // MARK: Writing (Apple's setters)

    /// Stores a Foundation-style value (`nil` removes the key). A value beyond the limits is not
    /// stored and the quota-violation reason is posted; a credential is not stored and the
    /// refusal is logged (by key, never the value). ``put(_:forKey:)`` throws instead.
    public func set(_ value: Any?, forKey key: String) {
        guard let value else { return setLogging(nil, forKey: key) }
        guard let converted = PrefValue(any: value) else {
            Self.logger.error("cannot store key '\(key)' in the key-value store: \(PrefValue.unstorableReason(value) ?? "an unsupported type")")
            return
        }
        setLogging(converted, forKey: key)
    }

    /// Stores a string (`nil` removes the key).
    public func set(_ value: String?, forKey key: String) { setLogging(value.map(PrefValue.string), forKey: key) }
    /// Stores data (`nil` removes the key).
    public func set(_ value: Data?, forKey key: String) { setLogging(value.map(PrefValue.data), forKey: key) }
    /// Stores an array (`nil` removes the key).
    public func set(_ value: [Any]?, forKey key: String) { set(value as Any?, forKey: key) }
    /// Stores a dictionary (`nil` removes the key).
    public func set(_ value: [String: Any]?, forKey key: String) { set(value as Any?, forKey: key) }
    /// Stores an integer.
    public func set(_ value: Int64, forKey key: String) { setLogging(.int(Int(value)), forKey: key) }
    /// Stores a double.
    public func set(_ value: Double, forKey key: String) { setLogging(.double(value), forKey: key) }
    /// Stores a Boolean.
    public func set(_ value: Bool, forKey key: String) { setLogging(.bool(value), forKey: key) }

    /// Removes the key (on every device, once synced).
    public func removeObject(forKey key: String) {
        setLogging(nil, forKey: key)
    }

    /// Stores `value` (`nil` removes the key), or throws why not; nothing is written when it
    /// throws.
    /// - Throws: ``SyncError/quotaExceeded(key:limit:)`` (the quota-violation reason is posted
    ///   too), ``SyncError/secretRefused(key:reason:)``, ``SyncError/storage(_:)``.
    public func put(_ value: PrefValue?, forKey key: String) throws(SyncError) {
        guard let sync else {
            do {
                if let value { try store.put(value, forKey: key) } else { store.removeObject(forKey: key) }
            } catch {
                throw .storage(error)
            }
            return
        }
        if let value, let reason = SecretGate.refusal(key: key, value: value) { throw .secretRefused(key: key, reason: reason) }
        try sync.addKeys([key])
        try sync.set(value, forKey: key)
        // As on iOS: a write made before the initial sync completed is reported with that reason.
        if case .initialSync = sync.localStatus {
            notifications.async { [weak self] in self?.post(keys: [key], reason: .initialSyncChange) }
        }
    }

    private func setLogging(_ value: PrefValue?, forKey key: String) {
        do {
            try put(value, forKey: key)
        } catch .quotaExceeded {
            // Posted by the quota event; Apple's setter says nothing more.
        } catch {
            Self.logger.error("\(error)")
        }
    }

    // MARK: Sync

    /// Merges what other devices published and publishes this device's changes now; `true`
    /// when that worked (the synced folder is there), `false` when the store is not synced or
    /// the round failed. Cheap; as on iOS, there is no need to call it often.
    @discardableResult
    public func synchronize() -> Bool {
        guard let sync else { return false }
        guard let report = try? sync.syncNow() else { return false }
        if case .folderMissing = report.status { return false }
        return true
    }

    /// The sync's events (``DeviceSync/events``); an empty stream for a store that is not synced.
    public var events: AsyncStream<SyncEvent> {
        sync?.events ?? AsyncStream { $0.finish() }
    }

    /// Where sync stands (``DeviceSync/status``); ``SyncStatus/engineNotRunning(reason:)`` for a
    /// store that is not synced.
    public var status: SyncStatus {
        sync?.status ?? .engineNotRunning(reason: "this key-value store is not synced; enable device sync for suite \(store.suiteName)")
    }

    // MARK: Notifications

    static func notification(for event: SyncEvent) -> ([String], SyncChangeReason)? {
        switch event {
        case .merged(let keys, let reason): return (keys, reason)
        case .quotaExceeded(let key, _): return ([key], .quotaViolationChange)
        default: return nil
        }
    }

    private func post(keys: [String], reason: SyncChangeReason) {
        NotificationCenter.default.post(
            name: Self.didChangeExternallyNotification, object: self,
            userInfo: [Self.changedKeysKey: keys, Self.changeReasonKey: reason.rawValue])
    }
}

/// The store, for the listener that outlives nothing it should not.
private final class WeakStore: @unchecked Sendable {
    weak var store: UbiquitousKeyValueStore?
}

#if !canImport(Darwin)
/// Apple's name of ``UbiquitousKeyValueStore``, so that code shared with iOS compiles as it is.
public typealias NSUbiquitousKeyValueStore = UbiquitousKeyValueStore
/// Apple's global name of ``UbiquitousKeyValueStore/changeReasonKey``.
public let NSUbiquitousKeyValueStoreChangeReasonKey = UbiquitousKeyValueStore.changeReasonKey
/// Apple's global name of ``UbiquitousKeyValueStore/changedKeysKey``.
public let NSUbiquitousKeyValueStoreChangedKeysKey = UbiquitousKeyValueStore.changedKeysKey
/// Apple's global name of ``SyncChangeReason/serverChange`` (0).
public let NSUbiquitousKeyValueStoreServerChange = SyncChangeReason.serverChange.rawValue
/// Apple's global name of ``SyncChangeReason/initialSyncChange`` (1).
public let NSUbiquitousKeyValueStoreInitialSyncChange = SyncChangeReason.initialSyncChange.rawValue
/// Apple's global name of ``SyncChangeReason/quotaViolationChange`` (2).
public let NSUbiquitousKeyValueStoreQuotaViolationChange = SyncChangeReason.quotaViolationChange.rawValue
/// Apple's global name of ``SyncChangeReason/accountChange`` (3).
public let NSUbiquitousKeyValueStoreAccountChange = SyncChangeReason.accountChange.rawValue
#endif
