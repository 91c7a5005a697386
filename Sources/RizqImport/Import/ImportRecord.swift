import Foundation
import RizqPrefs

/// Where imports are recorded, so that an import runs once: the suite `rizq-migrations` of the
/// app (`<root>/apps/<app id>/rizq-migrations.json`), one key per import id, holding the input's
/// digest, when it was imported, and what it wrote (suite keys and secret accounts, never values).
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
    /// The record suite's name: `rizq-migrations`, as before the module was named an import, so
    /// that imports recorded then still count as done.
    static let suiteName = "rizq-migrations"

    let appID: String
    let root: String
    let location: SuiteLocation

    init(appID: String, root: String) throws(SuiteStoreError) {
        self.appID = appID
        self.root = root
        location = try SuiteLocation(suiteName: Self.suiteName, appID: appID, root: root)
    }

    /// The recorded import with `id`, or `nil`. Creates nothing when there is no record yet.
    func previous(_ id: String) throws(SuiteStoreError) -> ImportReport.PreviousImport? {
        guard FileManager.default.fileExists(atPath: location.path) else { return nil }
        guard case .dictionary(let entry)? = try store().entries[id] else { return nil }
        var previous = ImportReport.PreviousImport()
        if case .date(let date)? = entry["importedAt"] { previous.importedAt = date }
        if case .string(let digest)? = entry["digest"] { previous.digest = digest }
        if case .int(let runs)? = entry["runs"] { previous.runs = runs }
        return previous
    }

    func store() throws(SuiteStoreError) -> SuiteStore {
        try SuiteStore(suite: Self.suiteName, appID: appID, root: root)
    }

    /// Records an import (the last write of an import: if it fails, everything is rolled back).
    @discardableResult
    func commit(id: String, dump: ImportDump, suites: [String: [String]], secrets: [(service: String, account: String)], runs: Int) throws -> SuiteCommit {
        var entry: [String: PrefValue] = [
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
