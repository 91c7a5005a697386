/// One conflict copy merged (or, in a dry run, that would be merged) by
/// ``DeviceSync/mergeConflictCopies(dryRun:)`` or ``SuiteConflictCopies``.
public struct ConflictCopyMerge: Sendable, Equatable {
    /// What the copy is a copy of.
    public enum Kind: String, Sendable, Equatable {
        /// A copy of a live suite file (the user synced the suite's own folder, or restored a backup).
        case suite
        /// A copy of a device's replica (a clone of a device, a restored backup).
        case replica
    }

    /// The copy's path.
    public var path: String
    /// What it is a copy of.
    public var kind: Kind
    /// The keys whose value in the suite it changed (or would change).
    public var changedKeys: [String]
    /// Where the copy was archived; `nil` in a dry run, or when it could not be moved.
    public var archivedTo: String?
    /// Why the copy was not merged, when it was not: a link (never followed), a FIFO or device
    /// (never opened for reading), another user's file, one too large, not JSON, not a replica.
    /// It is left where it is; the other copies are merged all the same.
    public var skipped: String?

    /// A copy merged (or skipped, with why).
    public init(path: String, kind: Kind, changedKeys: [String], archivedTo: String?, skipped: String? = nil) {
        self.path = path
        self.kind = kind
        self.changedKeys = changedKeys
        self.archivedTo = archivedTo
        self.skipped = skipped
    }
}
