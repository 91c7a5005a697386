/// One step of a ``SuiteMigrations``'s chain: how a file of version ``fromVersion`` becomes a file of
/// version ``toVersion`` (always `fromVersion + 1`).
///
/// As in SwiftData, a stage is lightweight — changes given as data, which RizqPrefs carries out
/// — or custom — a closure of your own over the suite's contents:
///
/// ```swift
/// .lightweight(from: 0, to: 1, [
///     .rename("lastUsedProvider", to: "last_used_provider"),
///     .remove("legacy_banner_seen"),
/// ])
/// .custom(from: 1, to: 2) { batch in
///     let goal = batch.value(forKey: "daily_goal", as: Int.self) ?? 3
///     try batch.set(min(goal, 20), forKey: "daily_goal")
/// }
/// ```
///
/// Stages run in memory, one after the other, on the file's contents; nothing is written until
/// every stage has run. A closure that throws stops the migration with nothing changed — not
/// the suite, not another suite, not a keyring.
public struct MigrationStage: Sendable {
    /// What the stage does.
    enum Work: Sendable {
        case lightweight([MigrationChange])
        case custom(@Sendable (inout MigrationBatch) throws -> Void)
    }

    /// The version of the files this stage migrates.
    public let fromVersion: Int
    /// The version they have after it: `fromVersion + 1`.
    public let toVersion: Int
    let work: Work

    /// A stage made of lightweight changes, carried out in the order given (SwiftData's
    /// `MigrationStage.lightweight`). An empty list is a step where nothing changed on disk.
    public static func lightweight(from fromVersion: Int, to toVersion: Int, _ changes: [MigrationChange]) -> MigrationStage {
        MigrationStage(fromVersion: fromVersion, toVersion: toVersion, work: .lightweight(changes))
    }

    /// A stage that runs `migrate` over a batch of the suite (SwiftData's
    /// `MigrationStage.custom`): read, set and remove keys, decode and encode `Codable`
    /// values, and apply lightweight changes (``MigrationBatch/apply(_:)``).
    ///
    /// `migrate` must touch nothing but the batch: it runs before anything is written, and when
    /// a later stage or a write fails, only what went through the batch is undone. When it
    /// throws, the migration stops and nothing is changed.
    public static func custom(
        from fromVersion: Int, to toVersion: Int, _ migrate: @escaping @Sendable (inout MigrationBatch) throws -> Void
    ) -> MigrationStage {
        MigrationStage(fromVersion: fromVersion, toVersion: toVersion, work: .custom(migrate))
    }

    /// Why a lightweight change of this stage cannot work, checked when the schema is declared.
    func declarationProblem() -> String? {
        guard case .lightweight(let changes) = work else { return nil }
        return changes.lazy.compactMap { $0.declarationProblem() }.first
    }
}
