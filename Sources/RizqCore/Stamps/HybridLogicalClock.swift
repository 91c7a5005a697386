#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Issues ``ChangeStamp``s for one origin: each stamp is later than every stamp this clock has
/// issued or observed, and close to the wall clock.
///
/// The rules are those of a hybrid logical clock (Kulkarni et al., 2014): a new stamp takes the
/// larger of the wall clock and the latest stamp known, and a counter orders stamps that share a
/// millisecond. ``observe(_:)`` a stamp before acting on its value (merging a replica, reading
/// a row), and every later change of this origin wins over it — even when this machine's clock
/// is behind the one that made it. A clock far ahead does not win over an edit made after
/// seeing its value, for the same reason.
public final class HybridLogicalClock: Sendable {
    /// The origin every stamp of this clock names.
    public let origin: String
    private let wallClock: @Sendable () -> Int64
    private let latest = Mutex<(milliseconds: Int64, counter: UInt32)>((0, 0))

    /// A clock for `origin`, reading `wallClock` (milliseconds since 1970; default: the
    /// system's real-time clock).
    public init(origin: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) {
        self.origin = origin
        self.wallClock = wallClock
    }

    /// A stamp for a change made now: after every stamp issued or observed.
    public func now() -> ChangeStamp {
        let physical = wallClock()
        return latest.withLock { latest in
            if physical > latest.milliseconds {
                latest = (physical, 0)
            } else if latest.counter == UInt32.max {
                latest = (latest.milliseconds + 1, 0)
            } else {
                latest.counter += 1
            }
            return ChangeStamp(milliseconds: latest.milliseconds, counter: latest.counter, origin: origin)
        }
    }

    /// Takes note of a stamp seen elsewhere: every later ``now()`` is after it.
    public func observe(_ stamp: ChangeStamp) {
        latest.withLock { latest in
            if stamp.milliseconds > latest.milliseconds || (stamp.milliseconds == latest.milliseconds && stamp.counter > latest.counter) {
                latest = (stamp.milliseconds, stamp.counter)
            }
        }
    }

    /// The system's real-time clock in milliseconds since 1970.
    @Sendable public static func systemMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
