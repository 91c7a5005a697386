#if canImport(Glibc)
import Glibc
#endif

/// The wall clock of change times, in nanoseconds since 1970 (comparable with file times): the
/// coarse real-time clock, a few milliseconds fine, which is all the same-key rule needs and
/// costs no system call.
enum WallClock {
    /// Now.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
