#if Secrets
import Foundation
import RizqPrefs

/// What an import did (or, for a dry run, would do) with every key of the dump: imported with
/// a declared type, inferred, kept (already there), skipped (with the reason), or sent to the
/// secret store. Secret values never appear in it; suite values do, as they are written.
///
/// ```swift
/// let report = try importer.run(dump)
/// print(report.text)                       // for people
/// try report.json.write(to: url, …)        // for scripts: a stable shape
/// report.items(.secret).map(\.sourceKey)   // what went to the keyring
/// ```
public struct ImportReport: Sendable, Equatable {
    /// What happened as a whole.
    public enum Status: String, Sendable, Codable {
        /// Nothing was written; the items say what would be.
        case dryRun = "dry-run"
        /// The items were written and the import recorded.
        case imported
        /// This import id was imported before: nothing was done (use `force` to run again).
        case alreadyImported = "already-imported"
    }

    /// What happened to one key.
    public enum Action: String, Sendable, Codable, CaseIterable {
        /// Written to a suite with the type a plan rule gave.
        case imported
        /// Written to a suite with an inferred type.
        case inferred
        /// Not written: the suite key or secret account already holds a value (use `overwrite`).
        case kept
        /// Not written, for the reason given.
        case skipped
        /// Written to the secret store.
        case secret
    }

    /// Where a key went (or would have gone).
    public enum Destination: Sendable, Equatable {
        /// A suite key.
        case suite(name: String, key: String)
        /// A secret store item (its service and account).
        case secret(service: String, account: String)
    }

    /// One key of the dump.
    public struct Item: Sendable, Equatable {
        /// The `localStorage` key.
        public var sourceKey: String
        /// What happened.
        public var action: Action
        /// Where it went; `nil` for skipped keys.
        public var destination: Destination?
        /// The suite value's type (`bool`, `int`, `double`, `string`, `date`, `json`); `nil` for
        /// secrets and skipped keys.
        public var type: String?
        /// The suite value written (or to be written); `nil` for secrets, kept and skipped keys.
        public var value: PrefValue?
        /// Which rule decided: a plan rule, inference, credential detection.
        public var rule: String
        /// Why it was kept or skipped, or what else to know.
        public var note: String?
    }

    /// An earlier import of the same import id.
    public struct PreviousImport: Sendable, Equatable {
        /// When it was imported.
        public var importedAt: Date?
        /// The digest of its input.
        public var digest: String?
        /// How many times it ran (more than 1 after forced runs).
        public var runs: Int = 1
    }

    /// The import's id: the plan's, or the one given in ``Importer/Options/importID``, or
    /// `localstorage-` and the start of the input's digest.
    public var importID: String
    /// What happened as a whole.
    public var status: Status
    /// The dump file, if any.
    public var source: String?
    /// The dump's format.
    public var format: ImportDump.Format
    /// The dump's origin, if the file named one.
    public var origin: String?
    /// `sha256:` and the input's digest.
    public var digest: String
    /// One item per dump key, in dump order (empty when already imported).
    public var items: [Item]
    /// Warnings from reading the dump and from the import.
    public var warnings: [String]
    /// The earlier import, when this id was imported before.
    public var previousImport: PreviousImport?
    /// The file of each suite written to (or that would be), by suite name.
    public var suiteFiles: [String: String]
    /// The file that records imports.
    public var recordFile: String

    /// The items with `action`.
    public func items(_ action: Action) -> [Item] {
        items.filter { $0.action == action }
    }

    /// How many items have `action`.
    public func count(_ action: Action) -> Int {
        items.reduce(0) { $0 + ($1.action == action ? 1 : 0) }
    }
}
#endif
