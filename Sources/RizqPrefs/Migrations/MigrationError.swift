/// Why opening a suite with a ``SuiteMigrations`` did not migrate it. In every case the suite file,
/// the other suites and the keyring are as they were (``writeFailed(suite:fromVersion:toVersion:underlying:rollbackProblems:)``
/// lists anything that could not be put back).
///
/// Each message says what happened and what to do. None holds a value that was moving into a
/// keyring.
public enum MigrationError: Error, Sendable {
    /// The ``SuiteMigrations`` was refused when it was declared: its stages do not form one
    /// chain from version 0 to its version (thrown by ``SuiteMigrations/init(version:stages:)``).
    case invalidChain(ChainProblem)
    /// The suite could not be opened or its file read (see ``SuiteStoreError``).
    case cannotOpen(SuiteStoreError)
    /// The suite file's `"$schemaVersion"` member holds something that is not a version (a whole
    /// number from 0), so the file's shape is unknown and nothing is migrated. `found` is its
    /// kind (`string`, `double`, …).
    case invalidStoredVersion(path: String, found: String)
    /// A stage failed while it ran — its closure threw (`underlying`), or a lightweight change
    /// met a value it cannot handle (`reason`). Stages run before anything is written: nothing
    /// changed.
    case stageFailed(suite: String, fromVersion: Int, toVersion: Int, reason: String, underlying: (any Error)?)
    /// Writing the migration failed — the keyring, another suite or this suite's file
    /// (`underlying`). What had been written was undone: the secrets stored were deleted (or the
    /// ones they replaced put back), the other suites reverted; `rollbackProblems` names what
    /// could not be undone (empty when everything was).
    case writeFailed(suite: String, fromVersion: Int, toVersion: Int, underlying: any Error, rollbackProblems: [String])
}

extension MigrationError: CustomStringConvertible {
    /// One line: what failed, what state things are in, and what to do.
    public var description: String {
        switch self {
        case .invalidChain(let problem):
            return problem.description
        case .cannotOpen(let error):
            return error.description
        case .invalidStoredVersion(let path, let found):
            return "suite file \(path) holds \"\(SchemaVersionMember.key)\" as a \(found), not a schema version (a whole number from 0); nothing was migrated: set it to the version of the file's data, or remove the member if the data has the shape it had before the app declared a schema (version 0)"
        case .stageFailed(let suite, let from, let to, let reason, _):
            return "cannot migrate suite '\(suite)' from version \(from) to \(to): \(reason); nothing was changed: fix the stage, or the value by hand (rizq-prefs set), then open the suite again"
        case .writeFailed(let suite, let from, let to, let underlying, let problems):
            let undone = problems.isEmpty
                ? "everything written was undone"
                : "some of what was written could not be undone (\(problems.joined(separator: "; ")))"
            return "cannot migrate suite '\(suite)' to version \(to) (it stays at version \(from)): \(underlying); \(undone); fix the cause and open the suite again"
        }
    }
}
