import Foundation
import RizqJSON
import Logging
import Synchronization

/// A `UserDefaults`-compatible store of typed preferences over one human-readable JSON file.
///
/// Ported code keeps Foundation's spelling:
///
/// ```swift
/// let defaults = SuiteStore.standard
/// defaults.set(7, forKey: "current_streak")
/// let streak = defaults.integer(forKey: "current_streak")
///
/// let shared = SuiteStore(suiteName: "group.com.rizq.app")
/// shared?.set(Date(), forKey: "last_sync_timestamp")
/// ```
///
/// What Foundation lacks: ``value(forKey:as:)`` (typed and strict), ``put(_:forKey:)`` (refuses
/// what a suite cannot hold with an error), ``flush()`` (durable on return), ``batch(_:)`` (all or none), ``keys``,
/// and ``changes(forKey:)``.
///
/// `set` changes memory at once and schedules a coalesced write (50 ms later); pending changes
/// are also written when the process exits normally. Several processes may share a suite:
/// each write takes a file lock and merges key by key, so distinct keys are never lost, and
/// changes made by other processes show up here within milliseconds (inotify).
///
/// Instances are cheap and `Sendable`; all instances of one suite in a process share state.
public final class SuiteStore: Sendable {
    /// The suite's name: the app id for the standard suite, or the name given.
    public let suiteName: String
    /// The app whose suites this store resolves names against.
    public let appID: String
    /// Where the suite file lives.
    public let location: SuiteLocation
    let openSuite: OpenSuite
    /// Where the posts of ``didChangeNotification`` for this store's one-key writes stand
    /// (``postDidChangeSoon()``): a ``DidChangePostState`` raw value.
    let didChangePostState = Atomic<UInt8>(DidChangePostState.idle.rawValue)

    private static let standardCache = Mutex<[String: SuiteStore]>([:])

    // MARK: Opening

    /// The app's own suite. The app id is `RIZQ_PREFS_APP_ID`, else the one given to
    /// ``configure(appID:)``, else the executable's name; the root is `RIZQ_PREFS_HOME`, else
    /// `$XDG_CONFIG_HOME/rizq-prefs`, else `~/.config/rizq-prefs`.
    ///
    /// Never fails: when the file cannot be opened (permissions), the error is logged and the
    /// suite lives in memory only, leaving the file untouched; ``flush()`` reports the error.
    public static var standard: SuiteStore {
        let appID = AppIdentity.current
        let root = SuiteLocation.defaultRoot()
        let cacheKey = root + "\u{0}" + appID
        if let cached = standardCache.withLock({ $0[cacheKey] }) { return cached }
        let store: SuiteStore
        do {
            store = try SuiteStore(suite: appID, appID: appID, root: root)
        } catch {
            Logger.rizqPrefs.error("cannot open the standard suite: \(error)")
            store = SuiteStore(unopenable: appID, appID: appID, root: root, error: error)
        }
        return standardCache.withLock { cache in
            if let raced = cache[cacheKey] { return raced }
            cache[cacheKey] = store
            return store
        }
    }

    /// Sets the app id that ``standard`` and named suites use, for apps that do not set
    /// `RIZQ_PREFS_APP_ID` (which still wins). Call it once, early, before using ``standard``.
    public static func configure(appID: String) {
        AppIdentity.configure(appID: appID)
    }

    /// The app id now in force (see ``standard``).
    public static var currentAppID: String { AppIdentity.current }

    /// Foundation's failable initializer: `nil` names the standard suite; an invalid name, or a
    /// file that cannot be read, gives `nil`. Use ``init(suite:appID:root:)`` to learn why.
    public convenience init?(suiteName: String?) {
        let appID = AppIdentity.current
        do {
            try self.init(suite: suiteName ?? appID, appID: appID, root: nil)
        } catch {
            Logger.rizqPrefs.warning("cannot open suite: \(error)")
            return nil
        }
    }

    /// Opens the suite `suite` of app `appID` (default: the current app id) under `root`
    /// (default: see ``standard``), and says why when it cannot.
    ///
    /// ```swift
    /// let shared = try SuiteStore(suite: "group.com.rizq.app")
    /// ```
    /// - Throws: ``SuiteStoreError/invalidSuiteName(name:reason:)``,
    ///   ``SuiteStoreError/invalidAppID(appID:reason:)``, or ``SuiteStoreError/unreadable(path:reason:)``.
    public init(suite: String, appID: String? = nil, root: String? = nil) throws(SuiteStoreError) {
        let appID = appID ?? AppIdentity.current
        let location = try SuiteLocation(suiteName: suite, appID: appID, root: root ?? SuiteLocation.defaultRoot())
        self.suiteName = suite
        self.appID = appID
        self.location = location
        self.openSuite = try SuiteRegistry.openSuite(for: location)
        DidChangeRelay.attach(self)
    }

    private init(unopenable suite: String, appID: String, root: String, error: SuiteStoreError) {
        self.suiteName = suite
        self.appID = appID
        self.location = (try? SuiteLocation(suiteName: suite, appID: appID, root: root))
            ?? SuiteLocation(unvalidated: suite, root: root)
        self.openSuite = OpenSuite(unopenable: self.location, error: error)
        DidChangeRelay.attach(self)
    }

    /// The store for another suite of the same app and root.
    func sibling(named name: String) throws(SuiteStoreError) -> SuiteStore {
        try SuiteStore(suite: name, appID: appID, root: rootPath)
    }

    private var rootPath: String { location.root }

    // MARK: Writing

    /// Stores `value` (`nil` removes the key). Values a suite cannot hold — nested deeper than
    /// ``PrefValue/maximumNesting``, a date beyond the years ±999,999 — are refused: an error is
    /// logged and the stored value stays as it was. Use ``put(_:forKey:)`` to get that error
    /// thrown instead.
    @inlinable
    public func set<Value: PrefValueConvertible>(_ value: Value?, forKey key: String) {
        // Inlinable, like the other hot paths, so that the conversion is specialized in the caller.
        storeLoggingFailure(value?.prefValue, forKey: key)
    }

    /// Stores a Foundation-style value: any ``PrefValueConvertible``, a Foundation object
    /// (`NSString`, `NSNumber`, `NSURL`, `NSData`, `NSDate`, `NSArray`, `NSDictionary`), or `[Any]` /
    /// `[String: Any]` of these; `nil` removes the key. What cannot be stored is refused: an error
    /// naming its type is logged and the stored value stays as it was.
    ///
    /// A key an administrator forced (``objectIsForced(forKey:)``) is written all the same, as
    /// Foundation writes it: the value goes to the user's layer and takes effect when the lock
    /// goes, and meanwhile every read returns the forced value (one notice in the log). A value the
    /// suite's schema forbids is refused and logged, as GSettings refuses it. The throwing writes
    /// (``put(_:forKey:)``, batches, ``Key/put(_:)``) refuse both.
    public func set(_ value: Any?, forKey key: String) {
        do {
            try store(Self.storable(value, forKey: key), forKey: key, refusingForced: false)
        } catch {
            Logger.rizqPrefs.error("\(error)", metadata: ["suite": "\(suiteName)"])
        }
    }

    /// Stores `value`, or removes the key for `nil`, and throws instead of storing a value that a
    /// suite file cannot hold so that it reads back as itself (see `set(_:forKey:)`), a value the
    /// suite's schema forbids, or any write to a key an administrator forced.
    /// - Throws: ``SuiteStoreError/invalidValue(key:reason:)``, ``SuiteStoreError/notAllowed(key:reason:)``
    ///   or ``SuiteStoreError/forced(key:path:)``; nothing is changed.
    @inlinable
    public func put<Value: PrefValueConvertible>(_ value: Value?, forKey key: String) throws(SuiteStoreError) {
        try store(value?.prefValue, forKey: key)
    }

    /// The one write of one key: the value checked (``validate(_:forKey:)``), then the layers
    /// asked (``checkLayers(_:forKey:refusingForced:)``) when one is in force, then memory changed
    /// and a write scheduled.
    @usableFromInline
    func store(_ value: PrefValue?, forKey key: String, refusingForced: Bool = true) throws(SuiteStoreError) {
        if let value { try Self.validate(value, forKey: key) }
        if openSuite.layersInForce.load(ordering: .relaxed) { try checkLayers(value, forKey: key, refusingForced: refusingForced) }
        openSuite.set(value, forKey: key)
        postDidChangeSoon()
    }

    @usableFromInline
    func storeLoggingFailure(_ value: PrefValue?, forKey key: String) {
        do {
            try store(value, forKey: key, refusingForced: false)
        } catch {
            Logger.rizqPrefs.error("\(error)", metadata: ["suite": "\(suiteName)"])
        }
    }

    /// Stores a Foundation-style value (see ``set(_:forKey:)-(Any?,_)``) or throws why not.
    public func put(any value: Any?, forKey key: String) throws(SuiteStoreError) {
        try store(Self.storable(value, forKey: key), forKey: key)
    }

    /// `value` as a stored value (`nil` for `nil`), or the error that names what cannot be stored.
    static func storable(_ value: Any?, forKey key: String) throws(SuiteStoreError) -> PrefValue? {
        guard let value else { return nil }
        switch PrefValue.converting(value) {
        case .success(let stored):
            try validate(stored, forKey: key)
            return stored
        case .failure(let problem):
            throw .invalidValue(key: key, reason: problem.description)
        }
    }

    /// The check every write of a suite runs before it changes anything: `key` is not reserved
    /// (the schema version's members), and `value` can be stored so that it reads back as itself
    /// (nested at most ``PrefValue/maximumNesting`` levels, dates within the years ±999,999, no
    /// dictionary that reads back as a tagged value). Public so that stores built on suites (a
    /// fleet suite, whose cache is one) refuse exactly what a suite cannot hold.
    /// - Throws: ``SuiteStoreError/invalidValue(key:reason:)`` saying why and what to do.
    public static func validate(_ value: PrefValue, forKey key: String) throws(SuiteStoreError) {
        if SchemaVersionMember.isReserved(key) {
            throw .invalidValue(
                key: key,
                reason: "the name is reserved for the suite's schema version, which a schema migration sets (read it with SuiteStore.schemaVersion or 'rizq-prefs schema'); give the key another name")
        }
        switch value {
        case .date, .array, .dictionary: break
        default: return  // only dates, and what can hold values, can be refused at the top level
        }
        if let problem = value.storageProblem() {
            throw .invalidValue(key: key, reason: problem.path.isEmpty ? problem.reason : problem.reason + " (at \(problem.path))")
        }
    }

    /// Removes the key from the suite (registered defaults still answer for it). For a key an
    /// administrator forced, the user's value goes and the forced one still reads, as in
    /// Foundation; `rizq-prefs delete` refuses it instead.
    public func removeObject(forKey key: String) {
        openSuite.set(nil, forKey: key)
        postDidChangeSoon()
    }

    /// Registers fallback values for missing keys, in memory only (never written), for this
    /// suite only (other suites do not see them). Takes what ``set(_:forKey:)-(Any?,_)`` takes; a
    /// value that cannot be stored is left out with an error in the log that names its type.
    public func register(defaults: [String: Any]) {
        var converted: [String: PrefValue] = [:]
        for (key, value) in defaults {
            do {
                converted[key] = try Self.storable(value, forKey: key)
            } catch {
                Logger.rizqPrefs.error("cannot register a default for key '\(key)': \(error)", metadata: ["suite": "\(suiteName)"])
            }
        }
        openSuite.memory.register(converted)
    }

    /// Empties the suite named `domainName` (this suite, or another suite of the same app):
    /// every key is removed and the file becomes `{}`.
    public func removePersistentDomain(forName domainName: String) {
        do {
            let target = domainName == suiteName ? self : try sibling(named: domainName)
            target.openSuite.apply([], replacingAll: true)
            postDidChange()
        } catch {
            Logger.rizqPrefs.error("cannot remove persistent domain: \(error)")
        }
    }

    /// The stored contents of the suite named `domainName`, or `nil` when it cannot be opened.
    public func persistentDomain(forName domainName: String) -> [String: Any]? {
        let target = domainName == suiteName ? self : try? sibling(named: domainName)
        return target?.openSuite.memory.values.dictionary.mapValues(\.anyValue)
    }

    /// Writes pending changes now and picks up other processes' changes; `false` (and a logged
    /// error) when the write failed. Foundation's spelling of ``flush()``.
    @discardableResult
    public func synchronize() -> Bool {
        do {
            try flush()
            openSuite.refresh()
            return true
        } catch {
            Logger.rizqPrefs.error("\(error)", metadata: ["suite": "\(suiteName)"])
            return false
        }
    }

    /// Writes pending changes now. When it returns, they are on disk (fsynced) and survive a
    /// crash or power loss.
    /// - Throws: ``SuiteStoreError/writeFailed(path:reason:)``; the changes stay pending in memory.
    public func flush() throws(SuiteStoreError) {
        try openSuite.flush()
    }

    // MARK: Reading

    /// What `key` reads as, as a ``PrefValue``: the forced value, the stored value, an
    /// administrator's or the schema's default, or the registered default (``source(forKey:)``
    /// says which).
    public func prefValue(forKey key: String) -> PrefValue? {
        // Where inotify cannot follow the file (a limit reached, its folder gone, a network
        // file system), the file's stamp is checked first: a read is never older than the file.
        if openSuite.degraded.load(ordering: .relaxed) { openSuite.refreshIfStale() }
        return openSuite.memory.value(forKey: key)
    }

    /// The stored value (or registered default) as `Value`; `nil` when missing or of another type.
    /// Strict: a stored `"42"` is not an `Int`.
    ///
    /// ```swift
    /// let streak = store.value(forKey: "current_streak", as: Int.self) ?? 0
    /// ```
    @inlinable
    public func value<Value: PrefValueConvertible>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        // Inlinable so that the conversion is specialized for `Value` in the caller: a typed
        // read is a hot path.
        prefValue(forKey: key).flatMap(Value.init(prefValue:))
    }

    /// Where a damaged suite file was moved aside when this process opened the suite (it then
    /// started empty), and why the file was judged damaged; `nil` when the file was sound.
    /// Tools use it to tell the user; the quarantined file is kept byte for byte.
    public var damagedFileMovedAside: (path: String, reason: String)? {
        openSuite.movedAsideAtOpen
    }

    /// The stored keys, sorted: the user's layer (registered defaults and an administrator's
    /// layers not included).
    public var keys: [String] {
        if openSuite.degraded.load(ordering: .relaxed) { openSuite.refreshIfStale() }
        return JSONWriter.sortedKeys(openSuite.memory.values.keys)
    }

    /// The stored entries as ``PrefValue``s: the user's layer, what `export` writes and device sync
    /// carries (registered defaults and an administrator's layers not included).
    public var entries: [String: PrefValue] {
        if openSuite.degraded.load(ordering: .relaxed) { openSuite.refreshIfStale() }
        return openSuite.memory.values.dictionary
    }

    /// What every key reads as, as Foundation-style values: the registered defaults, under the
    /// schema's and an administrator's defaults, under the stored values, under the forced ones
    /// (``ValueSource``). ``entries`` and ``persistentDomain(forName:)`` are the stored values alone.
    public func dictionaryRepresentation() -> [String: Any] {
        if openSuite.degraded.load(ordering: .relaxed) { openSuite.refreshIfStale() }
        return openSuite.memory.effectiveDictionary.mapValues(\.anyValue)
    }
}
