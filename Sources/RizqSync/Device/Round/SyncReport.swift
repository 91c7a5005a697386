/// What one round of sync did (``DeviceSync/syncNow()``).
public struct SyncReport: Sendable, Equatable {
    /// Keys whose value in the suite changed because of other devices (merged).
    public var merged: [String] = []
    /// Keys whose local change this round recorded with a stamp.
    public var recorded: [String] = []
    /// Whether this device's replica file was written.
    public var published = false
    /// Keys whose local value was not synced, and why (a credential, a limit); never the value.
    public var refused: [String: String] = [:]
    /// Whether this round was the first merge of this device (the initial sync ended).
    public var initialSyncCompleted = false
    /// Conflict copies of replicas merged and archived: each copy's path, and where it went.
    public var conflictCopies: [String: String] = [:]
    /// What other devices published that this round did not take, and why: a whole replica
    /// file, or one key's value (``SkippedInput``). Entries removed from this device's saved
    /// state (written by an earlier version) are here too, with the state's path.
    public var skipped: [SkippedInput] = []
    /// The devices whose stamps are far from this device's clock, as known after the round
    /// (``ClockSkew``).
    public var clockSkews: [ClockSkew] = []
    /// Keys whose merge was decided by a clock that is off — the edit that lost was made later,
    /// once the clocks' offset is taken out — with the explanation.
    public var decidedByClock: [String: String] = [:]
    /// Where sync stands after the round.
    public var status: SyncStatus = .initialSync
}
