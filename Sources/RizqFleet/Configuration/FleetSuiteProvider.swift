#if Fleet
import Configuration
import RizqConfiguration
import RizqPrefs
import ServiceLifecycle

/// A swift-configuration provider over a fleet suite: a `ConfigReader` reads the fleet's
/// values from the suite's cache (never waiting on the network), `fetch` asks the engine first,
/// and `watch` sees every change made on any host, live.
///
/// ```swift
/// let fleet = try FleetSuite("checkout", engine: try PostgresFleetEngine(url: engineURL))
/// let provider = FleetSuiteProvider(fleet)
/// let config = ConfigReader(providers: [EnvironmentVariablesProvider(), provider])
/// let group = ServiceGroup(services: [provider, server], logger: logger)   // holds the LISTEN connection
/// try await config.watchBool(forKey: "feature.newCheckout", default: false) { updates in
///     for await on in updates { router.useNewCheckout = on }   // `rizq-prefs fleet set` arrives here
/// }
/// ```
///
/// Keys map to the fleet suite's keys as for ``/RizqConfiguration/SuiteStoreProvider``
/// (``/RizqConfiguration/SuiteKeyMapping``: `http.timeout` is the key `"http.timeout"` by
/// default). No fleet value is secret — secrets never reach a fleet suite; compose a
/// `SecretStoreProvider` or swift-configuration's own for those.
///
/// The provider is also a `Service`: in a `ServiceGroup` it runs the fleet suite
/// (``FleetSuite/run()``), which holds the listening connection.
public struct FleetSuiteProvider: Sendable {
    /// The fleet suite read.
    public let fleet: FleetSuite
    /// How configuration keys map to the suite's keys.
    public let keyMapping: SuiteKeyMapping

    /// A provider over `fleet`.
    public init(_ fleet: FleetSuite, keyMapping: SuiteKeyMapping = .dottedKey) {
        self.fleet = fleet
        self.keyMapping = keyMapping
    }

    private var lookup: SuiteLookup { SuiteLookup(providerName: providerName, keyMapping: keyMapping) }
}

extension FleetSuite {
    /// A swift-configuration provider over this suite (``FleetSuiteProvider``).
    public var configProvider: FleetSuiteProvider { FleetSuiteProvider(self) }
}

extension FleetSuiteProvider: ConfigProvider {
    /// `FleetSuiteProvider[<suite>]`, as access logs name the provider.
    public var providerName: String { "FleetSuiteProvider[\(fleet.name)]" }

    /// The value of `key` in the cache, now.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let cache = fleet.cache
        return try lookup.result(forKey: key, type: type) { cache.prefValue(forKey: $0) }
    }

    /// Reads what the engine has that the cache has not seen, then the value. When the engine
    /// is unreachable, the cached value (the suite's status says since when it is stale): a
    /// configuration read never fails for the network's sake.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try? await fleet.synchronize()
        return try value(forKey: key, type: type)
    }

    /// The current value of `key`, then its value after every change of it, from any host.
    public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        let provider = self
        return try await ChangeTicks.watchValue(
            fleet.changes(forKey: keyMapping.suiteKey(for: key)), read: { try provider.value(forKey: key, type: type) }, updatesHandler: updatesHandler)
    }

    /// The cached values now, as one immutable snapshot.
    public func snapshot() -> any ConfigSnapshot {
        SuiteSnapshot(providerName: providerName, keyMapping: keyMapping, values: fleet.entries)
    }

    /// A snapshot now, then a new one after every change, from any host.
    public func watchSnapshot<Return: ~Copyable>(
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        let provider = self
        return try await ChangeTicks.watchSnapshot(fleet.changes(), snapshot: { provider.snapshot() }, updatesHandler: updatesHandler)
    }
}

extension FleetSuiteProvider: Service {
    /// Runs the fleet suite (``FleetSuite/run()``): listens to the engine until the service
    /// group shuts down.
    public func run() async throws {
        try await fleet.runUntilGracefulShutdown()
    }
}
#endif
