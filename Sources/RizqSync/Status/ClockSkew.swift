import RizqCore

/// A device whose stamps are far from this device's clock: further than
/// ``DeviceSync/clockWarningOffset`` (one minute) either way, as the stamps themselves show.
///
/// Device sync decides concurrent edits by their stamps, and stamps come from each device's
/// clock: when two devices edit one key before either has seen the other's edit, the one whose
/// clock is ahead wins even if its edit was made earlier. (An edit made *after* seeing another
/// always wins, whatever the clocks say.) This is how far off a clock is, so that such a loss
/// can be explained, and the clock fixed.
///
/// How it is known, without any message between devices but the replicas:
///
/// - a device's stamp that arrives ahead of this device's clock shows its clock (or its stamps)
///   to be at least that far ahead — the time the file took to travel only makes it look
///   nearer;
/// - each device publishes, in its replica, how far ahead of its own clock it found the others'
///   stamps; a device that found this device's stamps ahead shows its own clock to be behind.
///
/// ``offsetMilliseconds`` is positive when the device's stamps run ahead of this device's clock,
/// negative when its clock runs behind. For this device itself (``device`` is its own id) it is
/// how far its own stamps run ahead of its clock: it took a stamp from a device ahead.
public struct ClockSkew: Sendable, Hashable, CustomStringConvertible {
    /// The device: another device's replica id, or this device's own.
    public var device: String
    /// Whether ``device`` is this device.
    public var isThisDevice: Bool
    /// Milliseconds its stamps run ahead (positive) or its clock runs behind (negative),
    /// as measured; the true offset is at least as large.
    public var offsetMilliseconds: Int64

    /// A skew of `device`.
    public init(device: String, isThisDevice: Bool = false, offsetMilliseconds: Int64) {
        self.device = device
        self.isThisDevice = isThisDevice
        self.offsetMilliseconds = offsetMilliseconds
    }

    /// One line for people, with the offset in words.
    public var description: String {
        let amount = ClockOffsetWords.duration(offsetMilliseconds)
        if isThisDevice {
            return "this device's stamps run \(amount) ahead of its clock (it took stamps from a device whose clock is ahead)"
        }
        if offsetMilliseconds > 0 {
            return "device \(device)'s stamps run at least \(amount) ahead of this device's clock (its clock is ahead, or this one is behind)"
        }
        return "device \(device)'s clock runs at least \(amount) behind this device's (it found this device's stamps that far ahead of its clock)"
    }

    /// What to do about it.
    public var fix: String {
        "check both clocks (timedatectl; enable NTP: timedatectl set-ntp true): until they agree, edits made on both devices before either saw the other's are decided by the clocks, not by which came later"
    }
}
