#if Fleet
import RizqCore

/// How a ``FleetSuite`` keeps its cache, stamps its changes and treats an absent engine.
public struct FleetOptions: Sendable {
    /// Where the cache lives; `nil`: ``FleetCacheLocation/automatic(for:)``.
    public var cache: FleetCacheLocation?
    /// What a write does while the engine is unreachable.
    public var writes: FleetWritePolicy
    /// The origin of this host's change stamps; `nil`: this machine's ``/RizqCore/ReplicaIdentity``
    /// (a random id kept in the state folder, or `RIZQ_PREFS_REPLICA_ID`).
    public var origin: String?
    /// How long a deletion's tombstone is kept in the engine before it may be removed: a host
    /// offline for longer reads the suite whole when it comes back (so deletions are never
    /// missed), but a write it queued before then may bring a deleted key back. 90 days.
    public var tombstoneRetention: Duration
    /// The longest wait between two attempts to reach the engine again (the first is at once,
    /// then 50 ms, doubling up to this).
    public var maximumReconnectDelay: Duration

    /// Options with these parts (every default as documented on the properties).
    public init(
        cache: FleetCacheLocation? = nil, writes: FleetWritePolicy = .requireEngine, origin: String? = nil,
        tombstoneRetention: Duration = .seconds(90 * 24 * 3600), maximumReconnectDelay: Duration = .seconds(1)
    ) {
        self.cache = cache
        self.writes = writes
        self.origin = origin
        self.tombstoneRetention = tombstoneRetention
        self.maximumReconnectDelay = maximumReconnectDelay
    }
}
#endif
