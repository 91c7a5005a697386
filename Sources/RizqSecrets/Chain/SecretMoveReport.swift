#if Secrets
/// What ``ChainedSecretStore/move(from:to:deleteSource:dryRun:overwrite:progress:)`` did (or,
/// in a dry run, would do) with each account. Names only, never a secret.
public struct SecretMoveReport: Sendable, Equatable, Codable {
    /// What happened to one account.
    public enum Outcome: String, Sendable, Codable {
        /// Written to the destination and read back the same.
        case copied
        /// The destination had the same secret already (a rerun after an interruption, or an
        /// earlier copy): nothing written.
        case alreadyThere = "already-there"
        /// The destination has a different secret for the account: left as it is, and the
        /// source's copy kept (pass `overwrite` to replace it).
        case conflict
        /// The account was gone from the source before it was copied (someone deleted it).
        case vanished
        /// Dry run: it would be copied.
        case wouldCopy = "would-copy"
    }

    /// One account.
    public struct Item: Sendable, Equatable, Codable {
        /// The account's name.
        public var account: String
        /// What happened to it.
        public var outcome: Outcome
        /// Whether it was deleted from the source (or, in a dry run, would be).
        public var deletedFromSource: Bool
    }

    /// The backend the items came from.
    public var from: SecretBackendName
    /// The backend they went to.
    public var to: SecretBackendName
    /// Whether nothing was changed.
    public var dryRun: Bool
    /// Whether an interrupted move's journal was found and finished.
    public var resumed: Bool
    /// Every account, sorted.
    public var items: [Item]

    /// "copied 3, already there 1, conflicts 0, deleted from vault 4".
    public var summary: String {
        func count(_ outcome: Outcome) -> Int { items.filter { $0.outcome == outcome }.count }
        let deleted = items.filter(\.deletedFromSource).count
        var parts = dryRun
            ? ["would copy \(count(.wouldCopy))", "already there \(count(.alreadyThere))", "conflicts \(count(.conflict))"]
            : ["copied \(count(.copied))", "already there \(count(.alreadyThere))", "conflicts \(count(.conflict))"]
        if count(.vanished) > 0 { parts.append("gone from the source \(count(.vanished))") }
        if deleted > 0 { parts.append("\(dryRun ? "would delete" : "deleted") from \(from.rawValue) \(deleted)") }
        return (resumed ? "resumed an interrupted move: " : "") + parts.joined(separator: ", ")
    }
}

/// The name the first releases gave ``SecretMoveReport``.
@available(*, deprecated, renamed: "SecretMoveReport")
public typealias SecretMigrationReport = SecretMoveReport
#endif
