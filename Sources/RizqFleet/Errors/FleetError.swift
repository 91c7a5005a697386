#if Fleet
import Foundation
import RizqCore

/// Why a fleet suite call did not do what was asked. Every case says what happened and what to
/// do; none ever holds a stored value or a password.
public enum FleetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine could not be reached, did not answer within the call's deadline, or cancelled
    /// the call itself (a lock held longer than the server-side time-out): nothing was written.
    /// Reads still answer from the cache. A write sent whose answer never came is
    /// ``writeUnconfirmed(key:endpoint:reason:)`` instead.
    case engineUnavailable(endpoint: String, reason: String)
    /// A write was sent, and its answer never came (the connection was lost, or the call's
    /// deadline passed before the engine answered): it may have been committed, or may still
    /// be. Its stamp makes sending it again safe (a write whose own stamp already holds the key
    /// is reported as applied); the next catch-up shows whether it took effect.
    case writeUnconfirmed(key: String, endpoint: String, reason: String)
    /// The engine answered, and refused: wrong password, TLS required or not trusted, no
    /// permission, a server error. Retrying the same call will not help.
    case engineRefused(endpoint: String, reason: String)
    /// The write lost: the key already holds a change stamped after this one (made elsewhere,
    /// later by the hybrid logical clock). Nothing of this write is stored.
    case superseded(key: String, by: ChangeStamp)
    /// The value looks like a credential (a token, a password, a private key): secrets never
    /// reach the engine. Nothing was written.
    case secretRefused(key: String, reason: String)
    /// The value cannot be stored (NaN, a reserved key name, a `Codable` that failed to encode).
    case invalidValue(key: String, reason: String)
    /// The suite's name cannot be used (also the name of its cache suite).
    case invalidSuiteName(name: String, reason: String)
    /// The engine's address or options cannot be used.
    case invalidEngine(reason: String)
    /// The local cache (a suite file) cannot be opened or written.
    case cache(path: String, reason: String)
    /// Another process holds this cache: each process keeps a cache of its own.
    case cacheInUse(path: String)
    /// The origin of this host's stamps cannot be had (see ``/RizqCore/ReplicaIdentity``).
    case noReplicaIdentity(reason: String)

    /// One line: what happened, and what to do.
    public var description: String {
        switch self {
        case .engineUnavailable(let endpoint, let reason):
            return "the fleet engine at \(endpoint) is unavailable (\(reason)); nothing was written: check that the server is running and reachable, then try again"
        case .writeUnconfirmed(let key, let endpoint, let reason):
            return "the fleet engine at \(endpoint) did not confirm the write of '\(key)' (\(reason)); it may still take effect: read the key again once the engine answers, and write it again only if it is not there"
        case .engineRefused(let endpoint, let reason):
            return "the fleet engine at \(endpoint) refused the call (\(reason)); fix the user, password, TLS settings or permissions"
        case .superseded(let key, let winner):
            return "the change of '\(key)' was superseded: the key already holds a later change (stamp \(winner)); read the key again and decide whether to change it again"
        case .secretRefused(let key, let reason):
            return "the value of '\(key)' looks like a credential (\(reason)); secrets never go to a fleet suite: keep it in the host's own secret store (SecretServiceStore, systemd credentials, a vault)"
        case .invalidValue(let key, let reason):
            return "cannot store '\(key)': \(reason); nothing was written"
        case .invalidSuiteName(let name, let reason):
            return "invalid fleet suite name '\(name)': \(reason)"
        case .invalidEngine(let reason):
            return "invalid fleet engine: \(reason)"
        case .cache(let path, let reason):
            return "the fleet suite's cache \(path) cannot be used (\(reason)); fix the folder's permissions or free disk space"
        case .cacheInUse(let path):
            return "another process uses the fleet suite's cache \(path); give each process a cache of its own (FleetOptions.cache)"
        case .noReplicaIdentity(let reason):
            return "no replica id for this host's changes: \(reason)"
        }
    }

    /// Whether the engine could not be reached, or did not confirm a write (a write may be
    /// queued instead, when asked: sending it again is safe either way).
    public var isEngineUnavailable: Bool {
        switch self {
        case .engineUnavailable, .writeUnconfirmed: return true
        default: return false
        }
    }
}

extension FleetError: LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }
}
#endif
