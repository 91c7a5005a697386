/// When and where a value was changed, as a hybrid logical clock reads it: wall-clock
/// milliseconds, a counter, and the origin (the replica or host that made the change).
///
/// Stamps are totally ordered — milliseconds, then counter, then origin — and that order is the
/// one conflict rule of everything that leaves one machine (device sync and fleet suites): per
/// key, the newest stamp wins, deletes included. A ``HybridLogicalClock`` issues them so that a
/// change made after seeing another change is stamped after it, whatever the two machines'
/// clocks say.
///
/// ```swift
/// let clock = HybridLogicalClock(origin: "host-a")
/// let mine = clock.now()                   // a local edit
/// clock.observe(theirs)                    // a value pulled from elsewhere
/// clock.now() > theirs                     // true: the next edit wins over what was seen
/// ```
public struct ChangeStamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Wall-clock time of the change in milliseconds since 1970, or later when the clock has
    /// seen a later stamp.
    public var milliseconds: Int64
    /// Orders changes within one millisecond of the clock.
    public var counter: UInt32
    /// Who made the change: a replica or host id. Breaks the last tie, so no two different
    /// changes ever compare equal.
    public var origin: String

    /// A stamp with these parts.
    public init(milliseconds: Int64, counter: UInt32, origin: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.origin = origin
    }

    /// Milliseconds, then counter, then origin (in code-point order).
    public static func < (left: ChangeStamp, right: ChangeStamp) -> Bool {
        if left.milliseconds != right.milliseconds { return left.milliseconds < right.milliseconds }
        if left.counter != right.counter { return left.counter < right.counter }
        return Array(left.origin.utf8).lexicographicallyPrecedes(Array(right.origin.utf8))
    }

    /// `milliseconds.counter@origin`, e.g. `1764150000123.0@host-a`: the text form that sorts
    /// as the stamps do only within one length of milliseconds; compare stamps, not texts.
    public var description: String { "\(milliseconds).\(counter)@\(origin)" }

    /// Reads ``description``'s form back; `nil` when `text` is not one.
    public init?(parsing text: some StringProtocol) {
        guard let at = text.firstIndex(of: "@"), let dot = text[..<at].firstIndex(of: ".") else { return nil }
        let origin = String(text[text.index(after: at)...])
        guard !origin.isEmpty, let milliseconds = Int64(text[..<dot]), let counter = UInt32(text[text.index(after: dot)..<at]) else { return nil }
        self.init(milliseconds: milliseconds, counter: counter, origin: origin)
    }
}
