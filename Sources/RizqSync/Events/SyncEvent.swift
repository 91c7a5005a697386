import RizqCore

/// What device sync did or refused, as ``DeviceSync/events`` delivers it.
public enum SyncEvent: Sendable, Equatable {
    /// Other devices' changes reached this suite: `keys` changed value (or were deleted), for
    /// `reason` — ``SyncChangeReason/serverChange`` normally, ``SyncChangeReason/initialSyncChange``
    /// for the first merge of a new device, ``SyncChangeReason/accountChange`` for the first
    /// merge after the folder changed.
    case merged(keys: [String], reason: SyncChangeReason)
    /// This device's replica was written to the synced folder; `keys` are those whose entries
    /// changed in it — this device's changes (those made during the initial sync go out with
    /// the first merge) and other devices' changes it carries on.
    case published(keys: [String])
    /// A change of `key` was not synced: it would exceed ``SyncLimits`` (`limit` says which).
    case quotaExceeded(key: String, limit: String)
    /// A change of `key` was not synced: its value looks like a credential (`reason` names the
    /// evidence, never the value).
    case secretRefused(key: String, reason: String)
    /// A conflict copy was merged key by key (`keys` changed) and moved to the archive.
    case conflictCopyMerged(path: String, keys: [String])
    /// Another device's replica has changed nothing for longer than the tombstone retention:
    /// a key deleted meanwhile may come back from it. Forget the device if it is gone.
    case staleReplica(id: String, newest: ChangeStamp)
    /// A file in the folder is not taken: not a replica this version can read, a link or a FIFO
    /// (never followed or opened), another user's file, one too large, one whose `replica`
    /// field names another device than its name. It is left alone.
    case unreadableReplica(path: String, reason: String)
    /// One key's value in another device's replica was not taken (``SkippedInput``): its stamp
    /// is further ahead than the clock's maximum offset, it looks like a credential, the suite
    /// cannot hold it, or it would make the suite too large. Sent once per file, key and reason.
    case inputSkipped(SkippedInput)
    /// A device's stamps are far from this device's clock (``ClockSkew``). Sent when first seen
    /// and when the offset changes.
    case clockSkew(ClockSkew)
    /// The merge of `key` was decided by a clock that is off: the edit that lost was made
    /// later, once the clocks' offset is taken out. `explanation` says whose and by how much.
    case decidedByClock(key: String, explanation: String)
    /// The status changed.
    case statusChanged(SyncStatus)
}

/// Why synced keys changed: Apple's four reasons of `NSUbiquitousKeyValueStore`, with their
/// numbers.
public enum SyncChangeReason: Int, Sendable, Hashable, CaseIterable {
    /// Another device changed the values (`NSUbiquitousKeyValueStoreServerChange`).
    case serverChange = 0
    /// The first merge of this device, or a write made before it
    /// (`NSUbiquitousKeyValueStoreInitialSyncChange`).
    case initialSyncChange = 1
    /// A write would have exceeded the limits and was not made
    /// (`NSUbiquitousKeyValueStoreQuotaViolationChange`).
    case quotaViolationChange = 2
    /// The synced folder changed: the values are now those of the new folder's devices
    /// (`NSUbiquitousKeyValueStoreAccountChange`).
    case accountChange = 3
}
