/// The shape of a suite's data, versioned: the version the app's code expects, and the chain of
/// stages that brings a file of any older version up to it.
///
/// Declare it next to the keys, and open the suite with it:
///
/// ```swift
/// let schema = try SuiteMigrations(version: 2, stages: [
///     .lightweight(from: 0, to: 1, [
///         .rename("lastUsedProvider", to: "last_used_provider"),
///         .convert("daily_goal", from: String.self, to: Int.self) { Int($0) },   // "05" → 5
///     ]),
///     .custom(from: 1, to: 2) { batch in
///         if var preferences = batch.value(forKey: "user_preferences", as: [String: PrefValue].self) {
///             preferences["reminderHour"] = preferences["reminderHour"] ?? 9
///             try batch.set(preferences, forKey: "user_preferences")
///         }
///     },
/// ])
/// let settings = try SuiteStore(suite: "com.rizq.app", migrations: schema)   // migrated before it returns
/// ```
///
/// The stages form one chain, listed in order: from version 0 to 1, 1 to 2, and so on up to
/// ``version``, one stage for each step. A chain with a gap, a duplicate, a step of more than
/// one version or a stage past ``version`` is refused here, with a ``MigrationError/invalidChain(_:)`` that
/// says which. A file that records no version is version 0: the shape the suite had before the
/// app declared a schema.
///
/// The version is stored in the suite file itself, as its first member `"$schemaVersion"`
/// (plain JSON, not one of the suite's keys: see ``versionKey``).
public struct SuiteMigrations: Sendable {
    /// The name of the suite file's member that records its version:
    /// `{"$schemaVersion": 3, …}`. It is never one of the suite's keys — not in `keys`,
    /// `entries`, `dictionaryRepresentation()`, change streams, `rizq-prefs list` or `export` —
    /// and storing a key of that name is refused.
    public static let versionKey = SchemaVersionMember.key

    /// The version of the data this app's code reads and writes.
    public let version: Int
    /// The stages, in order: the one from version 0 first.
    public let stages: [MigrationStage]

    /// A schema at `version` with its chain of `stages`.
    /// - Throws: ``MigrationError/invalidChain(_:)`` when the chain does not lead from version 0 to `version`
    ///   one step at a time, in order, each step once; or when a lightweight change cannot work
    ///   (a rename to the same key, a move to a suite name that cannot exist).
    public init(version: Int, stages: [MigrationStage]) throws(MigrationError) {
        guard version >= 0 else { throw .invalidChain(.negativeVersion(version)) }
        var seen: Set<Int> = []
        for stage in stages {
            guard stage.toVersion == stage.fromVersion + 1, stage.fromVersion >= 0 else {
                throw .invalidChain(.notOneStep(fromVersion: stage.fromVersion, toVersion: stage.toVersion))
            }
            guard seen.insert(stage.fromVersion).inserted else { throw .invalidChain(.duplicate(fromVersion: stage.fromVersion)) }
            guard stage.toVersion <= version else { throw .invalidChain(.beyondVersion(toVersion: stage.toVersion, version: version)) }
            if let problem = stage.declarationProblem() {
                throw .invalidChain(.invalidChange(fromVersion: stage.fromVersion, reason: problem))
            }
        }
        for (index, stage) in stages.enumerated() where stage.fromVersion != index {
            // The stage listed here is not the next step: either the next step comes later in
            // the list, or it is missing.
            throw .invalidChain(seen.contains(index) ? .outOfOrder(fromVersion: index) : .gap(fromVersion: index))
        }
        if stages.count < version { throw .invalidChain(.gap(fromVersion: stages.count)) }
        self.version = version
        self.stages = stages
    }

    /// The stages that bring a file of `storedVersion` up to ``version`` (none when it is
    /// there already, or newer).
    func stages(from storedVersion: Int) -> ArraySlice<MigrationStage> {
        guard storedVersion < version else { return [] }
        return stages[max(storedVersion, 0)...]
    }
}
