#if Fleet
import RizqCore

/// What became of a write that did not fail.
public enum FleetWrite: Sendable, Equatable {
    /// The engine committed it (durably) as the suite's revision `revision`, with `stamp`.
    case committed(revision: Int64, stamp: ChangeStamp)
    /// The engine was unavailable and the suite queues writes (``FleetWritePolicy/queueWhenOffline``):
    /// the write is kept on this host, durably, with its `stamp`, and sent when the engine is
    /// back — where it still loses to any change stamped later.
    case queued(stamp: ChangeStamp)

    /// The write's stamp.
    public var stamp: ChangeStamp {
        switch self {
        case .committed(_, let stamp), .queued(let stamp): return stamp
        }
    }
}

/// What a write does when the engine cannot be reached.
public enum FleetWritePolicy: Sendable, Equatable {
    /// Fail with ``FleetError/engineUnavailable(endpoint:reason:)``: a fleet wants one truth,
    /// and the caller learns at once that nothing was written. The default.
    case requireEngine
    /// Keep the write on this host (with its stamp, durably) and send it when the engine is
    /// back, under the same rule as any write: it loses to a change stamped after it.
    case queueWhenOffline
}
#endif
