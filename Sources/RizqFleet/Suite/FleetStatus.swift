#if Fleet
import Foundation

/// Whether a fleet suite's cache is known to hold what the engine holds.
public enum FleetStatus: Sendable, Equatable, CustomStringConvertible {
    /// Listening to the engine and caught up: a change made anywhere reaches the cache within
    /// a notification's round trip.
    case live
    /// Reads answer from the cache, which may be behind the engine: the engine is unreachable,
    /// or this process has not reached it yet. `since` is the last moment the cache was known
    /// to be current — kept across restarts; `nil` when it never was (a new cache).
    case stale(since: Date?)

    /// Whether the suite is ``live``.
    public var isLive: Bool { self == .live }

    /// `live`, or `stale since 2026-11-26T12:00:00Z` / `stale (never synchronised)`.
    public var description: String {
        switch self {
        case .live: return "live"
        case .stale(let since?): return "stale since \(since.formatted(.iso8601))"
        case .stale(nil): return "stale (never synchronised)"
        }
    }
}
#endif
