/// A stamp that a ``HybridLogicalClock`` did not take: it is further ahead of the machine's
/// wall clock than the clock's maximum offset (a clock that is wrong, or a forged stamp).
///
/// What to do with the value it came with is the caller's business; device sync and fleet
/// suites leave it out and say so with ``description``.
public struct ClockOffsetRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The stamp refused.
    public var stamp: ChangeStamp
    /// How far ahead of the wall clock it was, in milliseconds.
    public var aheadMilliseconds: Int64
    /// The clock's maximum offset.
    public var maximumOffset: Duration

    /// A refusal of `stamp`, `aheadMilliseconds` ahead, past `maximumOffset`.
    public init(stamp: ChangeStamp, aheadMilliseconds: Int64, maximumOffset: Duration) {
        self.stamp = stamp
        self.aheadMilliseconds = aheadMilliseconds
        self.maximumOffset = maximumOffset
    }

    /// What was refused and why; names the stamp's origin, never a value.
    public var description: String {
        "its stamp (from '\(stamp.origin)') is \(ClockOffsetWords.duration(aheadMilliseconds)) ahead of this machine's clock, "
            + "more than the maximum offset of \(ClockOffsetWords.duration(HybridLogicalClock.milliseconds(maximumOffset))): "
            + "a clock that is wrong, or a forged stamp; it is not taken (check the clocks: timedatectl)"
    }
}

/// Words for a clock offset: "1 day", "3 h 12 min", "95 years", "40 s" (days and years from
/// two on to the nearest, the smaller units cut down).
public enum ClockOffsetWords {
    /// `milliseconds` (its magnitude) as words a person reads at a glance.
    public static func duration(_ milliseconds: Int64) -> String {
        let magnitude = milliseconds == Int64.min ? UInt64(Int64.max) + 1 : UInt64(milliseconds.magnitude)
        let seconds = magnitude / 1000
        let minute: UInt64 = 60, hour: UInt64 = 3600, day: UInt64 = 86_400, year: UInt64 = 31_557_600
        func plural(_ count: UInt64, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }
        // Whole days and years to the nearest: a stamp sent 3 days ahead is still "3 days" a
        // moment later, not "2 days".
        if seconds >= 2 * year { return plural((seconds + year / 2) / year, "year") }
        if seconds >= 2 * day { return plural((seconds + day / 2) / day, "day") }
        if seconds >= day {
            let hours = (seconds % day) / hour
            return hours == 0 ? "1 day" : "1 day \(hours) h"
        }
        if seconds >= hour {
            let minutes = (seconds % hour) / minute
            return minutes == 0 ? "\(seconds / hour) h" : "\(seconds / hour) h \(minutes) min"
        }
        if seconds >= minute {
            let rest = seconds % minute
            return rest == 0 ? "\(seconds / minute) min" : "\(seconds / minute) min \(rest) s"
        }
        if seconds >= 1 { return "\(seconds) s" }
        return "\(magnitude) ms"
    }
}
