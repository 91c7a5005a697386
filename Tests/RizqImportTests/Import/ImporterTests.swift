import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// The importer end to end, on real suite files and the real Secret Service of the test session.
final class ImporterTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    private func importer(_ root: ImportRoot, _ service: TestService, plan: ImportPlan? = nil, dryRun: Bool = false, force: Bool = false, overwrite: Bool = false, suite: String? = nil) -> Importer {
        Importer(plan: plan, options: root.options(dryRun: dryRun, force: force, overwrite: overwrite, suite: suite, service: service.name))
    }

    func testWithoutAPlanEverythingIsInferredIntoTheStandardSuite() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.jwt()
        let dump = ImportDump(pairs: [
            ("rizq_welcome_shown", "true"), ("current_streak", "12"), ("ratio", "0.75"), ("theme_mode", "dark"),
            ("cached_journey_ids", "[3,7]"), ("profile", #"{"name":"Amina","goal":3}"#), ("display", #""desktop""#),
            ("empty", ""), ("nothing", "null"), ("code", "007"), ("auth_token", token), ("kc-callback-42", #"{"state":"x"}"#),
        ])
        let report = try importer(root, service).run(dump)
        XCTAssertEqual(report.status, .imported)
        let store = try root.store(root.appID)
        XCTAssertEqual(store.value(forKey: "rizq_welcome_shown", as: Bool.self), true)
        XCTAssertEqual(store.value(forKey: "current_streak", as: Int.self), 12)
        XCTAssertEqual(store.value(forKey: "ratio", as: Double.self), 0.75)
        XCTAssertEqual(store.value(forKey: "theme_mode", as: String.self), "dark")
        XCTAssertEqual(store.value(forKey: "cached_journey_ids", as: [Int].self), [3, 7])
        XCTAssertEqual(store.prefValue(forKey: "profile"), .dictionary(["name": "Amina", "goal": 3]))
        XCTAssertEqual(store.value(forKey: "display", as: String.self), "desktop")
        XCTAssertEqual(store.value(forKey: "empty", as: String.self), "")
        XCTAssertEqual(store.value(forKey: "nothing", as: String.self), "null")
        XCTAssertEqual(store.value(forKey: "code", as: String.self), "007")
        XCTAssertNil(store.prefValue(forKey: "auth_token"))
        XCTAssertNil(store.prefValue(forKey: "kc-callback-42"))
        XCTAssertTrue(try service.secret("auth_token") == token, "the token is in the Secret Service")
        XCTAssertEqual(root.filesContaining(token), [])

        // The file, read independently: typed JSON, nested objects, not strings.
        let file = try root.fileObject(root.appID)
        XCTAssertEqual(file["current_streak"] as? Int, 12)
        XCTAssertEqual((file["profile"] as? [String: Any])?["name"] as? String, "Amina")

        // The report says which rule fired for each key.
        func item(_ key: String) -> ImportReport.Item? { report.items.first { $0.sourceKey == key } }
        XCTAssertEqual(item("current_streak")?.rule, "inferred: canonical integer → int")
        XCTAssertEqual(item("code")?.rule, "inferred: digits with a leading zero (a code, not a number) → string")
        XCTAssertEqual(item("auth_token")?.action, .secret)
        XCTAssertEqual(item("auth_token")?.rule, "credential: JWT")
        XCTAssertEqual(item("kc-callback-42")?.action, .skipped)
        XCTAssertTrue(item("kc-callback-42")?.note?.contains("Keycloak") == true)
        XCTAssertEqual(report.count(.inferred), 10)
        XCTAssertEqual(report.count(.secret), 1)
        XCTAssertEqual(report.count(.skipped), 1)
    }

    func testDryRunWritesNothingAndListsEveryWrite() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.jwt()
        let dump = ImportDump(pairs: [("theme_mode", "dark"), ("habits", #"{"ids":[1,2]}"#), ("session_token", token)])
        let report = try importer(root, service, dryRun: true).run(dump)
        XCTAssertEqual(report.status, .dryRun)
        XCTAssertEqual(root.snapshot(), [:], "no file written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.path + "/apps"), "no folder created")
        XCTAssertEqual(try service.store.accounts(), [], "no secret written")
        XCTAssertEqual(report.items.map(\.action), [.inferred, .inferred, .secret])
        XCTAssertEqual(report.items[1].value, .dictionary(["ids": [1, 2]]), "the plan of writes holds the values")
        XCTAssertEqual(report.items[2].destination, .secret(service: service.name, account: "session_token"))
        XCTAssertNil(report.items[2].value)
        XCTAssertFalse(report.text.contains(token))
        XCTAssertFalse(report.json.contains(token))
        XCTAssertTrue(report.text.contains("dry run, nothing was written"))
        // And the real run afterwards does exactly that.
        let real = try importer(root, service).run(dump)
        XCTAssertEqual(real.items, report.items)
        XCTAssertTrue(try service.secret("session_token") == token)
    }

    func testSecondRunChangesNoByteAndForceRunsAgain() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.jwt()
        let dump = ImportDump(pairs: [("theme_mode", "dark"), ("streak", "4"), ("refresh_token", token)])
        let first = try importer(root, service).run(dump)
        XCTAssertEqual(first.status, .imported)
        let afterFirst = root.snapshot()
        XCTAssertNotNil(afterFirst["apps/\(root.appID)/rizq-imports.json"])
        XCTAssertNil(afterFirst["apps/\(root.appID)/rizq-migrations.json"], "the earlier record's name is never written")

        let second = try importer(root, service).run(dump)
        XCTAssertEqual(second.status, .alreadyImported)
        XCTAssertEqual(second.items, [])
        XCTAssertEqual(second.previousImport?.digest, dump.digest)
        XCTAssertNotNil(second.previousImport?.importedAt)
        XCTAssertTrue(second.text.contains("already imported"))
        XCTAssertEqual(root.snapshot(), afterFirst, "not one byte of any file changed")
        XCTAssertTrue(try service.secret("refresh_token") == token)

        // The user removes a value; a forced run brings it back and keeps the rest.
        let store = try root.store(root.appID)
        store.removeObject(forKey: "streak")
        store.set("light", forKey: "theme_mode")
        try store.flush()
        let forced = try importer(root, service, force: true).run(dump)
        XCTAssertEqual(forced.status, .imported)
        XCTAssertEqual(store.value(forKey: "streak", as: Int.self), 4)
        XCTAssertEqual(store.string(forKey: "theme_mode"), "light", "an existing value is kept without overwrite")
        XCTAssertEqual(forced.items.map(\.action), [.kept, .inferred, .kept])
        XCTAssertEqual(forced.items[2].note, "the secret store already holds this secret")
        let record = try root.store("rizq-imports").prefValue(forKey: forced.importID)
        guard case .dictionary(let entry)? = record else { return XCTFail("no record") }
        XCTAssertEqual(entry["runs"], .int(2))
        XCTAssertEqual(entry["digest"], .string(dump.digest))
    }

    func testOverwriteReplacesExistingValuesAndSecrets() throws {
        let root = ImportRoot()
        let service = TestService()
        let store = try root.store(root.appID)
        store.set("light", forKey: "theme_mode")
        try store.flush()
        let older = FakeToken.opaque()
        try service.store.setSecret(older, forAccount: "api_key")
        let newer = FakeToken.opaque()
        let dump = ImportDump(pairs: [("theme_mode", "dark"), ("api_key", newer)])

        let kept = try importer(root, service, dryRun: true).run(dump)
        XCTAssertEqual(kept.items.map(\.action), [.kept, .kept])
        XCTAssertEqual(kept.items[1].note, "the secret store already holds a different secret here; overwrite (--overwrite) replaces it")

        let replaced = try importer(root, service, overwrite: true).run(dump)
        XCTAssertEqual(replaced.items.map(\.action), [.inferred, .secret])
        XCTAssertEqual(store.string(forKey: "theme_mode"), "dark")
        XCTAssertTrue(try service.secret("api_key") == newer)
    }

    func testSameIDWithAnotherInputIsStillAlreadyImported() throws {
        let root = ImportRoot()
        let service = TestService()
        let plan = ImportPlan(id: "rizq-web-1")
        _ = try importer(root, service, plan: plan).run(ImportDump(pairs: [("a", "1")]))
        let other = ImportDump(pairs: [("a", "2")])
        let report = try importer(root, service, plan: plan).run(other)
        XCTAssertEqual(report.status, .alreadyImported)
        XCTAssertTrue(report.text.contains("from a different input"), report.text)
        XCTAssertEqual(try root.store(root.appID).integer(forKey: "a"), 1)
        // Without a plan the id comes from the input, so a different input imports.
        let byDigest = try importer(root, service).run(other)
        XCTAssertEqual(byDigest.status, .imported)
        XCTAssertTrue(byDigest.importID.hasPrefix("localstorage-"))
    }

    func testPlanTypesTargetsAndSkips() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.jwt()
        let plan = ImportPlan(id: "plan-test", defaultSuite: "com.rizq.main", secretService: service.name, unmapped: .skip, rules: [
            .key("welcome", to: .suite(type: .bool)),
            .key("goal", to: .suite(type: .int)),
            .key("score", to: .suite(type: .double)),
            .key("version", to: .suite(type: .string)),
            .key("last_sync", to: .suite(key: "last_sync_timestamp", type: .date)),
            .key("activity", to: .suite("group.com.rizq.tests", key: "days", type: .json)),
            .key("nulled", to: .suite(type: .json)),
            .pattern("sb-*-auth-token", to: .secret(account: "supabase_session")),
            .pattern("legacy_*", to: .skip(reason: "replaced in version 2")),
            .key("theme_mode"),
        ])
        let dump = ImportDump(pairs: [
            ("welcome", "1"), ("goal", "05"), ("score", "42"), ("version", "5.0"), ("last_sync", "1795355220123"),
            ("activity", #"{"2026-11-22":{"xp":30}}"#), ("nulled", "null"), ("sb-abc-auth-token", #"{"access_token":"\#(token)"}"#),
            ("legacy_theme", "dark"), ("theme_mode", "dark"), ("unlisted", "x"),
        ])
        let report = try importer(root, service, plan: plan).run(dump)
        let main = try root.store("com.rizq.main")
        XCTAssertEqual(main.value(forKey: "welcome", as: Bool.self), true)
        XCTAssertEqual(main.value(forKey: "goal", as: Int.self), 5)
        XCTAssertEqual(main.value(forKey: "score", as: Double.self), 42)
        XCTAssertEqual(main.value(forKey: "version", as: String.self), "5.0")
        XCTAssertEqual(main.value(forKey: "last_sync_timestamp", as: Date.self), Date(timeIntervalSince1970: 1_795_355_220.123))
        XCTAssertEqual(main.value(forKey: "theme_mode", as: String.self), "dark")
        XCTAssertEqual(Set(main.keys), ["welcome", "goal", "score", "version", "last_sync_timestamp", "theme_mode"])
        XCTAssertEqual(try root.store("group.com.rizq.tests").prefValue(forKey: "days"), .dictionary(["2026-11-22": .dictionary(["xp": 30])]))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.path + "/groups/group.com.rizq.tests.json"))
        XCTAssertTrue(try service.secret("supabase_session")?.contains(token) == true)

        func item(_ key: String) -> ImportReport.Item? { report.items.first { $0.sourceKey == key } }
        XCTAssertEqual(item("goal")?.action, .imported)
        XCTAssertEqual(item("goal")?.rule, "plan rules[1] (key 'goal')")
        XCTAssertEqual(item("theme_mode")?.action, .inferred)
        XCTAssertEqual(item("nulled")?.action, .skipped)
        XCTAssertEqual(item("legacy_theme")?.note, "replaced in version 2")
        XCTAssertEqual(item("unlisted")?.action, .skipped)
        XCTAssertEqual(item("unlisted")?.rule, "plan: unmapped keys are skipped")
    }

    func testAPlanCannotSendATokenToASuite() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.jwt()
        let plan = ImportPlan(id: "unsafe", rules: [.key("portainer.JWT", to: .suite(type: .string))])
        let report = try importer(root, service, plan: plan).run(ImportDump(pairs: [("portainer.JWT", jsonString(token))]))
        XCTAssertEqual(report.items.first?.action, .secret)
        XCTAssertTrue(report.items.first?.note?.contains("the value is a credential (JWT in a JSON string)") == true)
        XCTAssertTrue(try service.secret("portainer.JWT") == jsonString(token))
        XCTAssertEqual(root.filesContaining(token), [])
    }

    func testAValueThatDoesNotConvertStopsBeforeAnyWrite() throws {
        let root = ImportRoot()
        let service = TestService()
        let plan = ImportPlan(id: "typed", rules: [.key("goal", to: .suite(type: .int))])
        let dump = ImportDump(pairs: [("api_key", FakeToken.opaque()), ("goal", "three")])
        XCTAssertThrowsError(try importer(root, service, plan: plan).run(dump)) { error in
            guard case ImportError.conversion(let key, let type, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key, "goal")
            XCTAssertEqual(type, .int)
            XCTAssertTrue("\(error)".contains("nothing was imported"))
        }
        XCTAssertEqual(root.snapshot(), [:])
        XCTAssertEqual(try service.store.accounts(), [])
    }

    /// Issue 51: the record's earlier name (`rizq-migrations.json`) is read, never written.
    func testAnImportRecordedUnderTheEarlierNameCountsAndThatFileIsNeverWritten() throws {
        let root = ImportRoot()
        let service = TestService()
        let dump = ImportDump(pairs: [("theme_mode", "dark"), ("streak", "4")])
        let first = try importer(root, service).run(dump)
        XCTAssertEqual(first.status, .imported)
        // As an earlier release left it: the same record under the earlier name, and no other.
        let record = try XCTUnwrap(FileManager.default.contents(atPath: root.recordFile))
        try FileManager.default.removeItem(atPath: root.recordFile)
        try record.write(to: URL(fileURLWithPath: root.earlierRecordFile))
        let before = root.snapshot()

        let again = try importer(root, service).run(dump)
        XCTAssertEqual(again.status, .alreadyImported)
        XCTAssertEqual(again.previousImport?.digest, dump.digest)
        XCTAssertTrue(again.text.hasPrefix("Import '\(again.importID)': already imported"), again.text)
        XCTAssertEqual(root.snapshot(), before, "not one byte of any file changed")

        let forced = try importer(root, service, force: true).run(dump)
        XCTAssertEqual(forced.status, .imported)
        XCTAssertEqual(forced.recordFile, root.recordFile)
        guard case .dictionary(let entry)? = try root.store("rizq-imports").prefValue(forKey: forced.importID) else {
            return XCTFail("the new run is not recorded under the record's name")
        }
        XCTAssertEqual(entry["runs"], .int(2), "the earlier record's runs count")
        XCTAssertEqual(FileManager.default.contents(atPath: root.earlierRecordFile), record, "the earlier record is never written")
    }

    func testTheRecordSuiteCannotBeATarget() throws {
        let root = ImportRoot()
        let service = TestService()
        for suite in ["rizq-imports", "rizq-migrations"] {
            XCTAssertThrowsError(try importer(root, service, suite: suite).run(ImportDump(pairs: [("a", "1")]))) { error in
                guard case ImportError.invalidOption(let reason) = error else { return XCTFail("\(suite): \(error)") }
                XCTAssertTrue(reason.contains("where imports are recorded"), reason)
            }
        }
        XCTAssertEqual(root.snapshot(), [:])
    }

    func testTwoKeysForOneTargetAreRefused() throws {
        let root = ImportRoot()
        let service = TestService()
        let plan = ImportPlan(id: "conflict", rules: [.key("old_theme", to: .suite(key: "theme_mode"))])
        let dump = ImportDump(pairs: [("old_theme", "dark"), ("theme_mode", "light")])
        XCTAssertThrowsError(try importer(root, service, plan: plan).run(dump)) { error in
            guard case ImportError.conflictingTargets(_, let keys) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(keys, ["old_theme", "theme_mode"])
        }
        XCTAssertEqual(root.snapshot(), [:])
    }

    func testTheJSONReportHasAStableShapeAndNoSecrets() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.jwt()
        let report = try importer(root, service).run(ImportDump(pairs: [("theme_mode", "dark"), ("id_token", token), ("kc-callback-1", "x")]))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["import", "status", "source", "format", "origin", "digest", "counts", "items", "warnings", "previousImport", "suiteFiles", "recordFile"])
        XCTAssertEqual(object["status"] as? String, "imported")
        XCTAssertEqual(object["counts"] as? [String: Int], ["imported": 0, "inferred": 1, "kept": 0, "skipped": 1, "secret": 1])
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        for item in items {
            XCTAssertEqual(Set(item.keys), ["key", "action", "suite", "suiteKey", "service", "account", "type", "value", "redacted", "rule", "note"])
        }
        XCTAssertEqual(items[1]["redacted"] as? Bool, true)
        XCTAssertTrue(items[1]["value"] is NSNull)
        XCTAssertEqual(items[0]["value"] as? String, "dark")
        XCTAssertFalse(report.json.contains(token))
        XCTAssertFalse(report.text.contains(token))
        XCTAssertEqual((object["suiteFiles"] as? [String: String])?[root.appID], root.suiteFile(root.appID))
    }

    func testTheRecordSaysWhatWasWrittenButNoValue() throws {
        let root = ImportRoot()
        let service = TestService()
        let token = FakeToken.opaque()
        let dump = try ImportDump(bytes: Array(flatDumpJSON([("theme_mode", "dark"), ("password", token)]).utf8), source: "dump.json")
        let report = try importer(root, service).run(dump)
        let record = try XCTUnwrap(FileManager.default.contents(atPath: root.recordFile))
        XCTAssertNil(record.range(of: Data(token.utf8)))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: record) as? [String: Any])
        let entry = try XCTUnwrap(object[report.importID] as? [String: Any])
        XCTAssertEqual(entry["digest"] as? String, dump.digest)
        XCTAssertEqual(entry["format"] as? String, "object")
        XCTAssertEqual(entry["suites"] as? [String: [String]], [root.appID: ["theme_mode"]])
        XCTAssertEqual(entry["secrets"] as? [[String: String]], [["service": service.name, "account": "password"]])
        XCTAssertTrue((entry["source"] as? String)?.hasSuffix("/dump.json") == true)
    }
}
