#if Configuration
import Configuration
import RizqPrefs

/// A swift-configuration provider over one suite: a `ConfigReader` reads the suite's values,
/// and its `watch` methods see every change, also those another process writes (an app, a
/// widget, `rizq-prefs set`) without a restart.
///
/// ```swift
/// import Configuration
/// import RizqConfiguration
///
/// let config = ConfigReader(providers: [
///     EnvironmentVariablesProvider(),
///     try SuiteStoreProvider(suite: "com.example.server"),
/// ])
/// let timeout = config.int(forKey: "http.timeout", default: 30)
/// try await config.watchInt(forKey: "http.timeout", default: 30) { updates in
///     for await timeout in updates { print("timeout is now", timeout) }
/// }
/// ```
///
/// Keys map to suite keys as ``keyMapping`` says: by default `http.timeout` is the suite key
/// `"http.timeout"` (``SuiteKeyMapping/dottedKey``). Values convert as the store's own typed
/// reads do (``/RizqPrefs/SuiteStore/value(forKey:as:)``); a value of another type throws
/// ``ConfigTypeMismatch``, which a reader answers with the default (or an error for a
/// `required` read). Registered defaults (``/RizqPrefs/SuiteStore/register(defaults:)``) are
/// read like stored values. No value is secret; keep secrets in a ``SecretStoreProvider``.
public struct SuiteStoreProvider: Sendable {
    /// The suite read.
    public let store: SuiteStore
    /// How configuration keys map to suite keys.
    public let keyMapping: SuiteKeyMapping

    /// A provider over an open suite.
    public init(store: SuiteStore, keyMapping: SuiteKeyMapping = .dottedKey) {
        self.store = store
        self.keyMapping = keyMapping
    }

    /// Opens `suite` of the app (`appID`, default: `RIZQ_PREFS_APP_ID` or the executable's
    /// name), or the app-group suite `group.…`, and reads it.
    ///
    /// - Throws: ``/RizqPrefs/SuiteStoreError`` when the name is invalid or the file unreadable.
    public init(suite: String, appID: String? = nil, keyMapping: SuiteKeyMapping = .dottedKey) throws(SuiteStoreError) {
        self.init(store: try SuiteStore(suite: suite, appID: appID), keyMapping: keyMapping)
    }
}

extension SuiteStoreProvider: ConfigProvider {
    /// `SuiteStoreProvider[<suite name>]`, as access logs name the provider.
    public var providerName: String { "SuiteStoreProvider[\(store.suiteName)]" }

    /// The current value of `key` in the suite (or its registered default).
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try SuiteLookup(providerName: providerName, keyMapping: keyMapping)
            .result(forKey: key, type: type) { store.prefValue(forKey: $0) }
    }

    /// The same as ``value(forKey:type:)``: the suite's file is the authority, and the store
    /// already holds what it last read from it (another process's write arrives within
    /// milliseconds through inotify).
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    /// The current value of `key`, then its value after every change of the suite key it is
    /// read from, whichever process made it. A burst of changes may arrive as its last value.
    public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        let provider = self
        return try await ChangeTicks.watchValue(
            store.changes(forKey: keyMapping.suiteKey(for: key)), read: { try provider.value(forKey: key, type: type) }, updatesHandler: updatesHandler)
    }

    /// The suite's values and registered defaults now, as one immutable snapshot.
    public func snapshot() -> any ConfigSnapshot {
        SuiteSnapshot(
            providerName: providerName, keyMapping: keyMapping,
            values: store.dictionaryRepresentation().compactMapValues(PrefValue.init(any:)))
    }

    /// A snapshot now, then a new one after every change of the suite, whichever process made
    /// it. A burst of changes may arrive as one snapshot.
    public func watchSnapshot<Return: ~Copyable>(
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        let provider = self
        return try await ChangeTicks.watchSnapshot(store.changes(), snapshot: { provider.snapshot() }, updatesHandler: updatesHandler)
    }
}

/// The values of a suite at one moment (also a fleet suite's, in RizqFleet).
package struct SuiteSnapshot: ConfigSnapshot {
    package let providerName: String
    package let keyMapping: SuiteKeyMapping
    package let values: [String: PrefValue]

    package init(providerName: String, keyMapping: SuiteKeyMapping, values: [String: PrefValue]) {
        self.providerName = providerName
        self.keyMapping = keyMapping
        self.values = values
    }

    package func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try SuiteLookup(providerName: providerName, keyMapping: keyMapping)
            .result(forKey: key, type: type) { values[$0] }
    }
}

/// One lookup, the same for the live store and a snapshot of it (and for a fleet suite's cache).
package struct SuiteLookup {
    package let providerName: String
    package let keyMapping: SuiteKeyMapping

    package init(providerName: String, keyMapping: SuiteKeyMapping) {
        self.providerName = providerName
        self.keyMapping = keyMapping
    }

    package func result(
        forKey key: AbsoluteConfigKey, type: ConfigType, read: (String) -> PrefValue?
    ) throws(ConfigTypeMismatch) -> LookupResult {
        let suiteKey = keyMapping.suiteKey(for: key)
        let path = keyMapping.path(for: key)
        let encodedKey = path.isEmpty ? suiteKey : ([suiteKey] + path).joined(separator: "/")
        // JSON null (only found nested) reads as missing, as an absent member would.
        guard let stored = read(suiteKey)?.nested(at: path), stored != .null else {
            return LookupResult(encodedKey: encodedKey, value: nil)
        }
        guard let content = stored.configContent(as: type) else {
            throw ConfigTypeMismatch(
                providerName: providerName, encodedKey: encodedKey, found: stored.kindName, requested: type,
                hint: keyMapping == .dottedKey
                    ? "store it with 'rizq-prefs set \(suiteKey) VALUE \(PrefValue.cliFlag(for: type))', or read it as \(stored.kindName)"
                    : "change the nested value to \(type.rawValue), or read it as \(stored.kindName)")
        }
        return LookupResult(encodedKey: encodedKey, value: ConfigValue(content, isSecret: false))
    }
}
#endif
