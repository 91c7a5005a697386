#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

/// Where imports are recorded, so that an import runs once: the file `rizq-imports` of the
/// app (`<root>/apps/<app id>/rizq-imports.json`), one key per import id, holding the input's
/// digest, when it was imported, its run's id (see ``ImportJournal``), and what it wrote (suite
/// keys and secret accounts, never values). It is a file in the suite format, but not a suite:
/// `rizq-prefs suites` does not list it and the command line does not open it as one.
///
/// Records written before imports had their own word are in `rizq-migrations.json`, beside it:
/// that file is read (an import recorded there still counts as done) and never written; a new
/// run of such an import (`--force`) is recorded in `rizq-imports.json`.
///
/// ```json
/// {
///   "rizq-web-2026": {
///     "digest": "sha256:3f2a…",
///     "format": "object",
///     "importedAt": {"$date": "2026-11-23T09:12:44.120000Z"},
///     "runs": 1,
///     "secrets": [{"account": "firebase_session", "service": "com.rizq.app"}],
///     "source": "/home/me/rizq-localstorage.json",
///     "suites": {"com.rizq.app": ["lastUsedProvider", "rizq_user_habits"]}
///   }
/// }
/// ```
struct ImportRecord: Sendable {
    /// The record's name: `rizq-imports`.
    static let suiteName = SuiteCatalog.importRecordName

    let appID: String
    let root: String
    /// The record, where imports are written.
    let location: SuiteLocation
    /// The earlier record (`rizq-migrations.json`), read only.
    let earlierLocation: SuiteLocation

    init(appID: String, root: String) throws(SuiteStoreError) {
        self.appID = appID
        self.root = root
        location = try SuiteLocation(suiteName: Self.suiteName, appID: appID, root: root)
        earlierLocation = try SuiteLocation(suiteName: SuiteCatalog.earlierImportRecordName, appID: appID, root: root)
    }

    /// The recorded import with `id` (the record first, then the earlier one), or `nil`.
    /// Creates nothing when there is no record yet.
    func previous(_ id: String) throws(SuiteStoreError) -> ImportReport.PreviousImport? {
        for location in [location, earlierLocation] where FileManager.default.fileExists(atPath: location.path) {
            if let previous = try Self.previous(id, in: SuiteStore(suite: location.suiteName, appID: appID, root: root)) { return previous }
        }
        return nil
    }

    private static func previous(_ id: String, in store: SuiteStore) -> ImportReport.PreviousImport? {
        guard case .dictionary(let entry)? = store.entries[id] else { return nil }
        var previous = ImportReport.PreviousImport()
        if case .date(let date)? = entry["importedAt"] { previous.importedAt = date }
        if case .string(let digest)? = entry["digest"] { previous.digest = digest }
        if case .int(let runs)? = entry["runs"] { previous.runs = runs }
        return previous
    }

    /// The run id of the recorded import `id` (records written before runs had ids have none),
    /// read without opening the record as a suite: what journal recovery asks, to tell an import
    /// killed after it was recorded (nothing to undo) from one killed before.
    func recordedRun(_ id: String) -> String? {
        for location in [location, earlierLocation] {
            guard let bytes = FileManager.default.contents(atPath: location.path),
                case .dictionary(let entries)? = try? JSONReader.parse(bytes),
                case .dictionary(let entry)? = entries[id], case .string(let run)? = entry["run"]
            else { continue }
            return run
        }
        return nil
    }

    func store() throws(SuiteStoreError) -> SuiteStore {
        try SuiteStore(suite: Self.suiteName, appID: appID, root: root)
    }

    /// Records an import (the last write of an import: if it fails, everything is rolled back).
    @discardableResult
    func commit(id: String, dump: ImportDump, suites: [String: [String]], secrets: [(service: String, account: String)], runs: Int, run: String) throws -> SuiteCommit {
        var entry: [String: PrefValue] = [
            "run": .string(run),
            "digest": .string(dump.digest),
            "importedAt": .date(Date()),
            "format": .string(dump.format.rawValue),
            "runs": .int(runs),
            "suites": .dictionary(suites.mapValues { .array($0.map { .string($0) }) }),
            "secrets": .array(secrets.map { .dictionary(["service": .string($0.service), "account": .string($0.account)]) }),
        ]
        if let origin = dump.origin { entry["origin"] = .string(origin) }
        if let source = dump.source { entry["source"] = .string(Self.absolute(source)) }
        let record = PrefValue.dictionary(entry)
        return try store().commit { batch in try batch.set(record, forKey: id) }
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
#endif
