/// What opening a suite with a schema would change, stage by stage, found without writing
/// anything: the dry run of a migration (``SuiteStore/previewMigration(suite:appID:root:migrations:)``).
///
/// ```swift
/// let preview = try SuiteStore.previewMigration(suite: "com.rizq.app", migrations: schema)
/// print(preview)
/// // suite com.rizq.app (/home/me/.config/rizq-prefs/apps/com.rizq.app/com.rizq.app.json): version 0 → 2
/// //   stage 0 → 1
/// //     lastUsedProvider: "google" → (removed)
/// //     last_used_provider: (absent) → "google"
/// //     daily_goal: "05" → 5
/// //   stage 1 → 2
/// //     auth_token: (secret) → moved to secret store com.rizq.app, account auth_token
/// ```
///
/// Values that a stage moves into a secret store never appear in it, in any stage: they show
/// as ``Value/secret``.
public struct MigrationPreview: Sendable, CustomStringConvertible {
    /// A value as the preview shows it.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        /// The key is absent.
        case absent
        /// The key holds this value.
        case value(PrefValue)
        /// A value that moves into a secret store: not shown.
        case secret

        /// `(absent)`, the value as compact JSON, or `(secret)`.
        public var description: String {
            switch self {
            case .absent: return "(absent)"
            case .value(let value): return value.description
            case .secret: return "(secret)"
            }
        }
    }

    /// Where a stage moved a key's value, outside the suite.
    public enum Destination: Sendable, Equatable, CustomStringConvertible {
        /// Another suite, under `key`.
        case suite(name: String, key: String)
        /// A secret store (its `service`), under `account`.
        case secretStore(service: String, account: String)

        /// `suite NAME, key KEY` or `secret store SERVICE, account ACCOUNT`.
        public var description: String {
            switch self {
            case .suite(let name, let key): return "suite \(name), key \(key)"
            case .secretStore(let service, let account): return "secret store \(service), account \(account)"
            }
        }
    }

    /// One key a stage changes.
    public struct Change: Sendable, Equatable, CustomStringConvertible {
        /// The suite's key.
        public let key: String
        /// Its value before the stage.
        public let before: Value
        /// Its value after the stage (`.absent` when it was removed or moved).
        public let after: Value
        /// Where its value went, when the stage moved it out of the suite.
        public let movedTo: Destination?

        /// A change, as a preview lists it (for comparing a preview in an app's tests).
        public init(key: String, before: Value, after: Value, movedTo: Destination?) {
            self.key = key
            self.before = before
            self.after = after
            self.movedTo = movedTo
        }

        /// `key: before → after`, or `key: before → moved to …`.
        public var description: String {
            if let movedTo {
                return "\(key): \(before) → moved to \(movedTo)"
            }
            return "\(key): \(before) → \(after == .absent ? "(removed)" : after.description)"
        }
    }

    /// One stage's changes.
    public struct Stage: Sendable, Equatable {
        /// The version the stage starts from.
        public let fromVersion: Int
        /// The version it brings the data to.
        public let toVersion: Int
        /// The keys it changes, in the order it first changes them; keys it sets to the value
        /// they had are left out.
        public let changes: [Change]
    }

    /// What the migration would do as a whole.
    public enum Outcome: Sendable, Equatable {
        /// The file is older than the schema: the stages below would run.
        case migrates
        /// The file is at the schema's version: nothing to do.
        case upToDate
        /// There is no file: the suite would start at the schema's version, without stages.
        case startsFresh
        /// The file is newer than the schema: it would be read as it is, never migrated down.
        case newerThanSchema
    }

    /// The suite's name.
    public let suiteName: String
    /// The suite file's path.
    public let path: String
    /// The version the file records now (0 when it records none, or there is no file).
    public let storedVersion: Int
    /// The schema's version.
    public let schemaVersion: Int
    /// What would happen.
    public let outcome: Outcome
    /// The stages that would run, in order (empty unless ``outcome`` is `.migrates`).
    public let stages: [Stage]

    /// A few lines for a person: the suite, the versions, then each stage's changes.
    public var description: String {
        var lines = ["suite \(suiteName) (\(path)): " + summary]
        for stage in stages {
            lines.append("  stage \(stage.fromVersion) → \(stage.toVersion)")
            if stage.changes.isEmpty { lines.append("    (no change)") }
            for change in stage.changes { lines.append("    " + change.description) }
        }
        return lines.joined(separator: "\n")
    }

    private var summary: String {
        switch outcome {
        case .migrates: return "version \(storedVersion) → \(schemaVersion)"
        case .upToDate: return "at version \(schemaVersion); nothing to migrate"
        case .startsFresh: return "no file yet; it would start at version \(schemaVersion), without running stages"
        case .newerThanSchema: return "version \(storedVersion) is newer than the schema's \(schemaVersion); it would be read as it is, never migrated down"
        }
    }
}
