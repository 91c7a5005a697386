#if Fleet
import Foundation
import Logging
import RizqCore
import RizqPrefs
import Synchronization

/// A suite shared by a fleet of servers through an engine (PostgreSQL), read from a local
/// cache and changed live.
///
/// ```swift
/// import RizqFleet
///
/// extension Keys { static let newCheckout = Key<Bool>("feature.newCheckout", default: false) }
///
/// let fleet = try FleetSuite("checkout", engine: try PostgresFleetEngine(url: "postgres://app@db.internal/settings"))
/// Task { try await fleet.run() }                  // listens; or add it to a ServiceGroup
/// let on = fleet[Keys.newCheckout]                 // from the cache: never waits, works offline
/// try await fleet.set(true, for: Keys.newCheckout) // returns when the engine has committed
/// ```
///
/// - **Reads** answer from the cache (a suite file on this host, ``cache``), at once, also
///   when the engine is away; ``status`` says whether the cache is ``FleetStatus/live`` or
///   ``FleetStatus/stale(since:)`` and since when.
/// - **Writes** go to the engine and return once it has committed; the engine decides each key
///   by its change stamp (a hybrid logical clock: the newest wins, deletions included), so a
///   write that lost is reported as ``FleetError/superseded(key:by:)``, never as success.
///   Values that look like credentials are refused (``FleetError/secretRefused(key:reason:)``).
/// - **Changes** made anywhere reach the cache while ``run()`` runs: it listens to the engine,
///   and after every notification and every reconnect reads everything above the last revision
///   it has seen, so a lost notification only delays a change.
///
/// The typed ``/RizqPrefs/Key``s of local suites work here: their name and type (the suite a
/// key names is not used). One process per cache (``FleetOptions/cache``).
public final class FleetSuite: Sendable {
    /// The suite's name in the engine.
    public let name: String
    /// The engine it runs on.
    public let engine: any FleetEngine
    /// The origin of this host's change stamps.
    public let origin: String
    /// The options it was opened with.
    public let options: FleetOptions
    let replica: FleetReplica
    private let cacheStore: FleetCache
    /// The cache's values suite (``cache``), held here as well so that a read is one load and
    /// the local suite's own read, inlined into the caller (issue 39: a cached get costs what a
    /// local suite's get costs).
    @usableFromInline let cacheValues: SuiteStore
    private let clock: HybridLogicalClock
    private let logger: Logger
    private let statusState: Mutex<StatusState>

    private struct StatusState {
        var status: FleetStatus
        var lastLive: Date?
        var watchers: [UUID: AsyncStream<FleetStatus>.Continuation] = [:]
        var prepared = false
    }

    /// Opens the suite `name` of `engine` from its cache: returns at once, without contacting
    /// the engine (``run()`` and the first write do), so a process starts even when the engine
    /// is down, with the values it last saw.
    ///
    /// - Throws: ``FleetError/invalidSuiteName(name:reason:)``, ``FleetError/cache(path:reason:)``,
    ///   ``FleetError/cacheInUse(path:)`` or ``FleetError/noReplicaIdentity(reason:)``.
    public init(_ name: String, engine: any FleetEngine, options: FleetOptions = FleetOptions(), logger: Logger = Logger(label: "rizq.fleet")) throws(FleetError) {
        if let problem = FleetSuite.problem(withName: name) { throw .invalidSuiteName(name: name, reason: problem) }
        let origin: String
        if let given = options.origin {
            guard ReplicaIdentity.isValid(given) else {
                throw .noReplicaIdentity(reason: "'\(given)' is not a replica id; use 1 to 64 letters, digits, '-', '_' or '.'")
            }
            origin = given
        } else {
            do {
                origin = try ReplicaIdentity.current()
            } catch {
                throw .noReplicaIdentity(reason: error.description)
            }
        }
        self.name = name
        self.engine = engine
        self.origin = origin
        self.options = options
        self.logger = logger
        let cache = try FleetCache(location: options.cache ?? .automatic(for: name), logger: logger)
        self.cacheStore = cache
        self.cacheValues = cache.values
        let clock = HybridLogicalClock(origin: origin)
        // Everything this host saw before it stopped is behind its next edit.
        if let latest = cache.state.withLock({ $0.latestStamp }) { clock.observe(latest) }
        self.clock = clock
        self.replica = FleetReplica(suite: name, engine: engine, cache: cache, clock: clock, logger: logger)
        let syncedAt = cache.state.withLock { $0.syncedAt }
        self.statusState = Mutex(StatusState(status: .stale(since: syncedAt), lastLive: syncedAt))
    }

    /// A fleet suite name: 1 to 200 characters, no control characters (it also names the
    /// cache suite, `fleet.<name>`, whose rules apply).
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.utf8.count > 200 { return "it is longer than 200 bytes" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "it contains a control character" }
        return nil
    }

    /// Why `key` cannot be a fleet suite's key, or `nil`: a key holding the character U+0000
    /// (NUL), which PostgreSQL's `text` cannot hold — the server would refuse it with an
    /// encoding error that names neither the key nor the cause. A local suite may hold such a
    /// key; a fleet suite refuses it before anything is sent.
    public static func problem(withKey key: String) -> String? {
        key.utf8.contains(0) ? "the key contains a NUL character (U+0000), which the fleet engine (PostgreSQL text) cannot hold; rename the key" : nil
    }

    // MARK: Reading (from the cache, never waiting)

    /// The cache: a suite on this host holding the fleet suite's values as last seen. Read it
    /// as any suite; do not write it (writes go through ``set(_:forKey:)``).
    public var cache: SuiteStore { cacheValues }

    /// The value `key` reads as: from the cache, its default when absent.
    @inlinable
    public subscript<Value>(key: Key<Value>) -> Value {
        // Inlinable: the read is the local suite's typed read, specialised in the caller.
        cacheValues[key]
    }

    /// The stored value of `key`, from the cache; `nil` when absent.
    @inlinable
    public func value(forKey key: String) -> PrefValue? {
        cacheValues.prefValue(forKey: key)
    }

    /// Every key and value, from the cache.
    public var entries: [String: PrefValue] { cacheStore.values.entries }

    /// The keys, sorted, from the cache.
    public var keys: [String] { cacheStore.values.keys }

    /// Every change that reaches the cache, from any host (this one's included), as it arrives.
    public func changes() -> AsyncStream<SuiteChange> {
        cacheStore.values.changes()
    }

    /// Every change of `key` that reaches the cache (`nil`: deleted).
    public func changes(forKey key: String) -> AsyncStream<PrefValue?> {
        cacheStore.values.changes(forKey: key)
    }

    /// Every change of a typed key, as the value it now reads as.
    public func changes<Value>(of key: Key<Value>) -> AsyncStream<Value> {
        let store = cacheStore.values
        let source = store.changes(forKey: key.name)
        let (stream, continuation) = AsyncStream<Value>.makeStream()
        let task = Task {
            for await _ in source { continuation.yield(store[key]) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The change stamp the cache holds for `key` (also for a deletion), if any.
    public func stamp(forKey key: String) -> ChangeStamp? {
        cacheStore.state.withLock { $0.queued[key]?.stamp ?? $0.stamps[key] }
    }

    /// The revision of the suite the cache has read up to.
    public var revision: Int64 { replica.revision }

    /// The writes queued on this host (``FleetWritePolicy/queueWhenOffline``), oldest first.
    public var queuedWrites: [FleetChange] { replica.queued }

    // MARK: Status

    /// Whether the cache is live or stale, and since when.
    public var status: FleetStatus { statusState.withLock { $0.status } }

    /// The status now, then each time it changes.
    public func statusUpdates() -> AsyncStream<FleetStatus> {
        let (stream, continuation) = AsyncStream<FleetStatus>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        let now = statusState.withLock { state in
            state.watchers[id] = continuation
            return state.status
        }
        continuation.yield(now)
        continuation.onTermination = { [weak self] _ in
            _ = self?.statusState.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    private func setStatus(_ live: Bool) {
        let (changed, watchers): (FleetStatus?, [AsyncStream<FleetStatus>.Continuation]) = statusState.withLock { state in
            let next: FleetStatus
            if live {
                state.lastLive = Date()
                next = .live
            } else {
                next = state.status == .live ? .stale(since: state.lastLive) : state.status
            }
            guard next != state.status else { return (nil, []) }
            state.status = next
            return (next, Array(state.watchers.values))
        }
        guard let changed else { return }
        logger.info("fleet suite is \(changed)", metadata: ["suite": "\(name)", "endpoint": "\(engine.endpointDescription)"])
        for watcher in watchers { watcher.yield(changed) }
    }

    // MARK: Writing (through the engine)

    /// Sets a typed key; returns once the engine has committed it (or queued it, when the suite
    /// queues writes and the engine is away).
    /// - Throws: ``FleetError``: `superseded` when a later change holds the key,
    ///   `engineUnavailable`, `secretRefused`, `invalidValue`.
    @discardableResult
    public func set<Value>(_ value: Value, for key: Key<Value>) async throws(FleetError) -> FleetWrite {
        let stored: PrefValue?
        do {
            stored = try key.storedValue(for: value)
        } catch {
            throw .invalidValue(key: key.name, reason: "\(error)")
        }
        return try await set(stored, forKey: key.name)
    }

    /// Removes a typed key from the fleet suite (it reads as its default everywhere).
    @discardableResult
    public func reset<Value>(_ key: Key<Value>) async throws(FleetError) -> FleetWrite {
        try await set(nil, forKey: key.name)
    }

    /// Removes `key` (a tombstone with this change's stamp).
    @discardableResult
    public func removeValue(forKey key: String) async throws(FleetError) -> FleetWrite {
        try await set(nil, forKey: key)
    }

    /// Sets `key` to `value` (`nil` removes it); returns once the engine has committed it.
    ///
    /// The value is checked first (what a local suite refuses, a credential: a
    /// typed error, nothing sent), then stamped by this host's clock — after every stamp it has
    /// seen — and sent to the engine, which applies it only over an older stamp.
    @discardableResult
    public func set(_ value: PrefValue?, forKey key: String) async throws(FleetError) -> FleetWrite {
        try await set(value, forKey: key, whenStamped: { _ in })
    }

    /// ``set(_:forKey:)``, calling `whenStamped` with the change's stamp once it is taken and
    /// before anything is sent (a test that spaces two hosts' changes in time starts counting there).
    @discardableResult
    package func set(_ value: PrefValue?, forKey key: String, whenStamped: (ChangeStamp) -> Void) async throws(FleetError) -> FleetWrite {
        try validate(value, forKey: key)
        let change = FleetChange(key: key, value: value, stamp: clock.now())
        whenStamped(change.stamp)
        let decision: FleetWriteDecision
        do {
            decision = try await engine.write(change, suite: name)
        } catch {
            if error.isEngineUnavailable {
                setStatus(false)
                if options.writes == .queueWhenOffline {
                    try await replica.enqueue(change)
                    return .queued(stamp: change.stamp)
                }
            }
            throw error
        }
        switch decision {
        case .applied(let revision):
            await replica.applyOwn(change)
            return .committed(revision: revision, stamp: change.stamp)
        case .superseded(let winner):
            clock.observe(winner)
            // Bring the winner into the cache without waiting for its notification.
            let replica = replica
            Task { try? await replica.catchUp() }
            throw .superseded(key: key, by: winner)
        }
    }

    /// Checks `value` for `key` as ``set(_:forKey:)`` does before sending anything: what a local
    /// suite refuses (``/RizqPrefs/SuiteStore/validate(_:forKey:)``, the same check: the cache
    /// is a suite, and every host must be able to hold what one host wrote — a value nested
    /// deeper than ``/RizqPrefs/PrefValue/maximumNesting``, a date out of range, a reserved key
    /// name), a key the engine cannot hold (``problem(withKey:)``), then a value that looks
    /// like a credential.
    /// - Throws: ``FleetError/invalidValue(key:reason:)`` or ``FleetError/secretRefused(key:reason:)``.
    public func validate(_ value: PrefValue?, forKey key: String) throws(FleetError) {
        if let problem = Self.problem(withKey: key) { throw .invalidValue(key: key, reason: problem) }
        if let value {
            do {
                try SuiteStore.validate(value, forKey: key)
            } catch {
                guard case .invalidValue(_, let reason) = error else { throw .invalidValue(key: key, reason: error.description) }
                throw .invalidValue(key: key, reason: reason)
            }
        }
        try FleetSecretGate.check(key: key, value: value)
    }

    // MARK: Keeping up with the engine

    /// Reads from the engine everything the cache has not seen, now (the engine's tables are
    /// set up first if this process has not yet done so); the status becomes live only while
    /// ``run()`` listens. Used by a configuration provider's `fetchValue` and by the command line.
    /// - Throws: ``FleetError/engineUnavailable(endpoint:reason:)`` and the like; the cache is
    ///   then as it was.
    public func synchronize() async throws(FleetError) {
        do {
            try await prepareIfNeeded()
            try await replica.catchUp()
        } catch {
            if error.isEngineUnavailable { setStatus(false) }
            throw error
        }
    }

    private func prepareIfNeeded() async throws(FleetError) {
        guard !statusState.withLock({ $0.prepared }) else { return }
        _ = try await engine.prepare(suite: name)
        statusState.withLock { $0.prepared = true }
        // Old tombstones go when a host (re)starts: a cheap statement, often nothing to do.
        do {
            let removed = try await engine.purgeTombstones(suite: name, olderThan: options.tombstoneRetention)
            if removed > 0 { logger.info("removed old tombstones", metadata: ["suite": "\(name)", "count": "\(removed)"]) }
        } catch {
            logger.debug("tombstones not purged", metadata: ["suite": "\(name)", "reason": "\(error)"])
        }
    }

    /// Listens to the engine until the task is cancelled: on every (re)connect, and after every
    /// notification, reads what the cache has not seen and applies it; sends queued writes when
    /// the engine is back. When the engine is lost the status turns stale, and the connection is
    /// tried again after 50 ms, the wait doubling up to ``FleetOptions/maximumReconnectDelay``
    /// (and back to 50 ms once it was live again). A loss is noticed within about two call
    /// deadlines however it happens — a restart, a cut network, the suite's tables dropped and
    /// made again (the engine's heartbeat, ``PostgresFleetEngine/listen(suite:onReady:onNotify:)``).
    /// Never throws: it returns when its task is cancelled, and the status is then stale (nothing
    /// listens any more).
    ///
    /// It runs on the global executor whatever actor calls it (`@concurrent`): a listener
    /// started from the main actor must not wait for it (a main thread blocked reading stdin
    /// kept a host's suite from ever going live).
    @concurrent
    public func run() async throws {
        // Live means listening: once this returns, nothing keeps the cache current.
        defer { setStatus(false) }
        var delay = Duration.milliseconds(50)
        var firstAttempt = true
        while !Task.isCancelled {
            if !firstAttempt {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return  // cancelled while waiting
                }
                delay = min(delay * 2, options.maximumReconnectDelay)
            }
            firstAttempt = false
            let wasLive = Flag()
            do {
                try await prepareIfNeeded()
                try await engine.listen(
                    suite: name,
                    onReady: { [self] in
                        do {
                            try await replica.catchUp()
                            let outcomes = await replica.flushQueue()
                            if !outcomes.isEmpty { try await replica.catchUp() }
                            wasLive.set()
                            setStatus(true)
                        } catch {
                            logger.warning("fleet catch-up failed", metadata: ["suite": "\(name)", "reason": "\(error)"])
                            setStatus(false)
                        }
                    },
                    onNotify: { [self] notice in
                        do {
                            try await replica.receive(notice)
                            setStatus(true)
                        } catch {
                            logger.warning("fleet catch-up failed", metadata: ["suite": "\(name)", "reason": "\(error)"])
                            setStatus(false)
                        }
                    })
                return  // cancelled
            } catch {
                setStatus(false)
                logger.info("fleet engine lost; reconnecting", metadata: ["suite": "\(name)", "reason": "\(error)"])
                statusState.withLock { $0.prepared = false }
                if wasLive.isSet { delay = .milliseconds(50) }
            }
        }
    }

    /// Waits until the cache's values and bookkeeping are on disk.
    public func settle() {
        cacheStore.settle()
    }
}
#endif
