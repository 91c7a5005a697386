import RizqPrefs

/// One synced key as a replica holds it: its value, or nothing when it was deleted (a
/// tombstone), and the ``/RizqCore/ChangeStamp`` of the change that made it so.
///
/// The stamp belongs to the change, not to the copy: a value pulled from another device keeps
/// the stamp its device gave it, and so does every replica that passes it on.
public struct SyncedEntry: Sendable, Hashable {
    /// The value; `nil` when the key was deleted.
    public var value: PrefValue?
    /// When, and on which device, the change was made.
    public var stamp: ChangeStamp

    /// An entry with this value (`nil`: a tombstone) and stamp.
    public init(value: PrefValue?, stamp: ChangeStamp) {
        self.value = value
        self.stamp = stamp
    }

    /// Whether the key was deleted.
    public var isTombstone: Bool { value == nil }
}
