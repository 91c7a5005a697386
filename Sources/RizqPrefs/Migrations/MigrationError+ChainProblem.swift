extension MigrationError {
    /// Why a ``SuiteMigrations`` was refused when it was declared (``MigrationError/invalidChain(_:)``).
    ///
    /// A schema's stages form one chain, in order, from version 0 to the schema's version, one
    /// version a stage: `0 → 1`, `1 → 2`, …, `(n-1) → n`. Every version a file can hold then has
    /// exactly one way forward, so no file is ever migrated twice, skipped over, or left with no
    /// path to the current version.
    public enum ChainProblem: Sendable, Equatable {
        /// The schema's version is below 0.
        case negativeVersion(Int)
        /// A stage does not go up by exactly one version (`from 1 to 3` would skip version 2;
        /// `from 2 to 2` goes nowhere).
        case notOneStep(fromVersion: Int, toVersion: Int)
        /// No stage goes from `fromVersion` to `fromVersion + 1`, though files of that version
        /// must reach the schema's version.
        case gap(fromVersion: Int)
        /// Two stages go from `fromVersion`.
        case duplicate(fromVersion: Int)
        /// The stage from `fromVersion` is listed after a stage that comes later in the chain.
        case outOfOrder(fromVersion: Int)
        /// A stage goes past the schema's version.
        case beyondVersion(toVersion: Int, version: Int)
        /// A lightweight change cannot work as declared (`reason` says why).
        case invalidChange(fromVersion: Int, reason: String)
    }
}

extension MigrationError.ChainProblem: CustomStringConvertible {
    /// One line: what is wrong with the chain, and how to fix it.
    public var description: String {
        switch self {
        case .negativeVersion(let version):
            return "a schema's version cannot be \(version): versions start at 0 (a file that records none is version 0)"
        case .notOneStep(let from, let to):
            return "the stage from version \(from) to \(to) must go to version \(from + 1): versions cannot be skipped; declare one stage for each step"
        case .gap(let from):
            return "no stage goes from version \(from) to \(from + 1): a file of version \(from) could not be migrated; add a stage (an empty .lightweight(from: \(from), to: \(from + 1), []) if nothing changed)"
        case .duplicate(let from):
            return "two stages go from version \(from): each version has exactly one stage; merge them into one"
        case .outOfOrder(let from):
            return "the stage from version \(from) is listed after a later one: list the stages in order, from version 0 up"
        case .beyondVersion(let to, let version):
            return "a stage goes to version \(to), past the schema's version \(version): raise the version to \(to), or remove the stage"
        case .invalidChange(let from, let reason):
            return "in the stage from version \(from) to \(from + 1): \(reason)"
        }
    }
}
