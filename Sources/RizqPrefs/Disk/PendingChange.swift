/// A local change not yet written: when it was made and what the file held for the key before,
/// so that a later change by another process can win over it (the last change wins, key by key,
/// whichever process writes first: ``ChangeTimes``).
///
/// The new value is not kept here: it is what the memory's table shows for the key (absent for
/// a removal), which every local change updates with its pending change. Kept here too, it made
/// each pending change 56 bytes instead of 32, and a burst of sets into a new suite spent a
/// quarter of its time moving them while the pending changes grew (docs/performance.md).
struct PendingChange: Sendable {
    /// Wall-clock time of the change, in nanoseconds since 1970 (comparable with file times).
    var time: Int64
    /// The key's value in the file this change was made over (`nil`: absent).
    var base: PrefValue?
}
