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
    /// A file in the folder is not a replica this version can read; it is left alone.
    case unreadableReplica(path: String, reason: String)
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
