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
///
/// **The maximum offset.** A stamp from elsewhere further ahead of this machine's wall clock
/// than ``maximumOffset`` (by default ``defaultMaximumOffset``, one day) is refused, as
/// CockroachDB refuses a timestamp past its maximum clock offset: ``observe(_:)`` leaves the
/// clock where it is and returns a ``ClockOffsetRefusal`` that says by how much the stamp is
/// ahead. Without the bound one forged or broken stamp (`9223372036854775807.4294967295@evil`,
/// a clock set to 2100) would drag this clock — and every clock that saw this one's stamps —
/// ahead for good. Whoever merges values should also leave out the value such a stamp carries
/// (``refusal(of:)`` asks without observing). A stamp behind the wall clock is never refused.
///
/// Nothing here traps on a foreign number: at the very end of the range (`Int64.max`
/// milliseconds, `UInt32.max` counter) stamps stop growing rather than overflow.
public final class HybridLogicalClock: Sendable {
    /// How far ahead of the wall clock an observed stamp may be, unless a clock is made with
    /// another: one day. It is more than any time-zone mistake of a machine whose clock is set
    /// in local time (at most 14 hours), and one ninetieth of device sync's tombstone retention:
    /// a stamp within it drags clocks ahead by at most a day, and only until the wall clocks
    /// catch up.
    public static let defaultMaximumOffset: Duration = .seconds(86_400)

    /// The origin every stamp of this clock names.
    public let origin: String
    /// How far ahead of the wall clock an observed stamp may be (see the type).
    public let maximumOffset: Duration
    private let wallClock: @Sendable () -> Int64
    private let latest = Mutex<(milliseconds: Int64, counter: UInt32)>((0, 0))

    /// A clock for `origin`, reading `wallClock` (milliseconds since 1970; default: the
    /// system's real-time clock), refusing stamps further ahead of it than `maximumOffset`.
    public init(
        origin: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds,
        maximumOffset: Duration = HybridLogicalClock.defaultMaximumOffset
    ) {
        self.origin = origin
        self.wallClock = wallClock
        self.maximumOffset = maximumOffset < .zero ? .zero : maximumOffset
    }

    /// A stamp for a change made now: after every stamp issued or observed (at the very end of
    /// the range, equal to the last one rather than a trap).
    public func now() -> ChangeStamp {
        let physical = wallClock()
        return latest.withLock { latest in
            if physical > latest.milliseconds {
                latest = (physical, 0)
            } else if latest.counter < UInt32.max {
                latest.counter += 1
            } else if latest.milliseconds < Int64.max {
                latest = (latest.milliseconds + 1, 0)
            }
            return ChangeStamp(milliseconds: latest.milliseconds, counter: latest.counter, origin: origin)
        }
    }

    /// Takes note of a stamp seen elsewhere: every later ``now()`` is after it — unless it is
    /// further ahead of the wall clock than ``maximumOffset``: then the clock stays where it
    /// is, and the refusal says why (callers that merge values should leave that value out).
    /// - Returns: `nil` when the stamp was taken; the ``ClockOffsetRefusal`` when it was not.
    @discardableResult
    public func observe(_ stamp: ChangeStamp) -> ClockOffsetRefusal? {
        if let refusal = refusal(of: stamp) { return refusal }
        latest.withLock { latest in
            if stamp.milliseconds > latest.milliseconds || (stamp.milliseconds == latest.milliseconds && stamp.counter > latest.counter) {
                latest = (stamp.milliseconds, stamp.counter)
            }
        }
        return nil
    }

    /// Why ``observe(_:)`` would refuse `stamp` (it is further ahead of the wall clock than
    /// ``maximumOffset``); `nil` when it would take it. Changes nothing.
    public func refusal(of stamp: ChangeStamp) -> ClockOffsetRefusal? {
        let ahead = offset(of: stamp)
        guard ahead > Self.milliseconds(maximumOffset) else { return nil }
        return ClockOffsetRefusal(stamp: stamp, aheadMilliseconds: ahead, maximumOffset: maximumOffset)
    }

    /// How far `stamp` is ahead of the wall clock now, in milliseconds (negative: behind);
    /// saturated at the ends of `Int64`, never a trap.
    public func offset(of stamp: ChangeStamp) -> Int64 {
        Self.difference(stamp.milliseconds, wallClock())
    }

    /// The milliseconds of the latest stamp this clock has issued or observed (the next
    /// ``now()`` is after it).
    public var latestMilliseconds: Int64 { latest.withLock { $0.milliseconds } }

    /// ``maximumOffset`` in whole milliseconds.
    public var maximumOffsetMilliseconds: Int64 { Self.milliseconds(maximumOffset) }

    /// The system's real-time clock in milliseconds since 1970.
    @Sendable public static func systemMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let (milliseconds, overflow) = Int64(spec.tv_sec).multipliedReportingOverflow(by: 1000)
        if overflow { return spec.tv_sec < 0 ? Int64.min : Int64.max }
        let (sum, overflowAgain) = milliseconds.addingReportingOverflow(Int64(spec.tv_nsec) / 1_000_000)
        return overflowAgain ? Int64.max : sum
    }

    /// `left - right`, saturated at the ends of `Int64` (a foreign stamp can be anything).
    public static func difference(_ left: Int64, _ right: Int64) -> Int64 {
        let (result, overflow) = left.subtractingReportingOverflow(right)
        guard overflow else { return result }
        return left < right ? Int64.min : Int64.max
    }

    /// A duration in whole milliseconds, saturated.
    package static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAgain ? Int64.max : sum
    }
}
