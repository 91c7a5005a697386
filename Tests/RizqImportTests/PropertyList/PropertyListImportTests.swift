import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// The seed app's Codable preferences, as the import should hand them to `@CodableUserDefault`.
private struct UserPreferences: Codable, Equatable, Sendable {
    var notificationsEnabled = true
    var hapticsEnabled = true
    var dailyGoal = 3
    var preferredTimeSlots = ["morning", "evening"]
}

/// Property lists imported into suites: types kept, written once, all or nothing, credentials
/// to the real Secret Service, and the source file untouched.
final class PropertyListImportTests: XCTestCase {
    /// The source's bytes and modification time, to show that the import did not touch it.
    private func fingerprint(_ path: String) throws -> (Data, Date) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (try XCTUnwrap(FileManager.default.contents(atPath: path)), try XCTUnwrap(attributes[.modificationDate] as? Date))
    }

    /// A copy of a fixture in the test's own folder, with an old modification time.
    private func copy(_ fixture: String, into root: ImportRoot) throws -> String {
        let path = root.path + "-inputs/" + fixture
        try FileManager.default.createDirectory(atPath: root.path + "-inputs", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root.path + "-inputs") }
        try FileManager.default.copyItem(atPath: PlistFixtures.path(fixture), toPath: path)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: path)
        return path
    }

    func testDryRunThenImportKeepsEveryTypeAndTheSourceIsUntouched() throws {
        for (fixture, binary) in [("typed.xml.plist", false), ("typed.binary.plist", true)] {
            let root = ImportRoot()
            let source = try copy(fixture, into: root)
            let before = try fingerprint(source)
            let dump = try ImportDump(contentsOfFile: source)
            let expected = PlistFixtures.typed(binary: binary)

            let dry = try Importer(options: root.options(dryRun: true)).run(dump)
            XCTAssertEqual(dry.status, .dryRun)
            XCTAssertEqual(root.snapshot(), [:], "\(fixture): a dry run writes nothing")
            XCTAssertEqual(dry.items.map(\.sourceKey), expected.map(\.key))
            XCTAssertEqual(dry.items.map(\.action), Array(repeating: .inferred, count: expected.count), fixture)
            func item(_ key: String) -> ImportReport.Item? { dry.items.first { $0.sourceKey == key } }
            XCTAssertEqual(item("streak")?.type, "int")
            XCTAssertEqual(item("half")?.type, "double")
            XCTAssertEqual(item("flag_on")?.type, "bool")
            XCTAssertEqual(item("whole_date")?.type, "date")
            XCTAssertEqual(item("bytes")?.type, "data")
            XCTAssertEqual(item("digits_text")?.value, .string("42"), "a plist string stays a string")
            XCTAssertEqual(item("user_preferences")?.type, "json")
            XCTAssertEqual(item("user_preferences")?.rule, "inferred: data holding JSON text (a JSON-encoded Codable) → json")
            XCTAssertEqual(item("streak")?.rule, "inferred: property-list value, its type kept")
            XCTAssertTrue(dry.text.contains("Input: \(source) (plist, sha256:"), dry.text)

            let report = try Importer(options: root.options()).run(dump)
            XCTAssertEqual(report.status, .imported)
            let store = try root.store(root.appID)
            for (key, value) in expected where key != "user_preferences" {
                XCTAssertEqual(store.prefValue(forKey: key), value, "\(fixture): \(key)")
            }
            XCTAssertEqual(Set(store.keys), Set(expected.map(\.key)))
            XCTAssertEqual(store.value(forKey: "one_double", as: Double.self), 1.0)
            XCTAssertEqual(store.value(forKey: "streak", as: Int.self), 12)
            XCTAssertEqual(store.data(forKey: "bytes"), Data([0x00, 0x01, 0xFE, 0xFF]))
            // The Codable's JSON is nested JSON in the file, and reads back through a codable key.
            guard case .dictionary(let preferences)? = store.prefValue(forKey: "user_preferences") else {
                return XCTFail("\(fixture): user_preferences is not nested JSON")
            }
            XCTAssertEqual(preferences["dailyGoal"], .int(3))
            XCTAssertEqual(Key(codable: "user_preferences", default: UserPreferences(dailyGoal: 0), store: store).value, UserPreferences())
            let file = try root.fileObject(root.appID)
            XCTAssertEqual((file["user_preferences"] as? [String: Any])?["preferredTimeSlots"] as? [String], ["morning", "evening"])
            XCTAssertEqual(file["theme_mode"] as? String, "dark")

            let written = root.snapshot()
            let again = try Importer(options: root.options()).run(dump)
            XCTAssertEqual(again.status, .alreadyImported)
            XCTAssertEqual(root.snapshot(), written, "\(fixture): a second run changes nothing")
            let after = try fingerprint(source)
            XCTAssertEqual(after.0, before.0, "\(fixture): the source's bytes are unchanged")
            XCTAssertEqual(after.1, before.1, "\(fixture): the source's modification time is unchanged")
        }
    }

    func testExistingKeysAreKeptUnlessOverwrite() throws {
        let root = ImportRoot()
        let store = try root.store(root.appID)
        store.set(99, forKey: "streak")
        try store.flush()
        let dump = try ImportDump(contentsOfFile: PlistFixtures.path("typed.binary.plist"))
        let kept = try Importer(options: root.options()).run(dump)
        XCTAssertEqual(kept.items.first { $0.sourceKey == "streak" }?.action, .kept)
        XCTAssertEqual(store.value(forKey: "streak", as: Int.self), 99)
        XCTAssertEqual(store.value(forKey: "negative", as: Int.self), -503)

        let replaced = try Importer(options: root.options(force: true, overwrite: true)).run(dump)
        XCTAssertEqual(replaced.items.first { $0.sourceKey == "streak" }?.action, .inferred)
        XCTAssertEqual(store.value(forKey: "streak", as: Int.self), 12)
    }

    func testValuesASuiteCannotHoldAreSkippedWithTheirReason() throws {
        let root = ImportRoot()
        let dump = try ImportDump(contentsOfFile: PlistFixtures.path("odd.binary.plist"))
        let skipped = try Importer(options: root.options(dryRun: true)).run(dump)
        XCTAssertEqual(skipped.items.map(\.action), [.inferred, .skipped, .skipped, .skipped, .skipped, .skipped, .inferred])
        XCTAssertTrue(skipped.text.contains("lone UTF-16 surrogate (0xD800)"), skipped.text)

        let plan = ImportPlan(id: "odd-1", rules: [
            .key("archived_uid", to: .skip(reason: "an archived colour, set again in the app")),
            .key("nested_uid", to: .suite(type: .json)),
            .key("lone_surrogate", to: .suite(type: .string), undecodable: .replace),
        ])
        let report = try Importer(plan: plan, options: root.options()).run(dump)
        XCTAssertEqual(report.items.map(\.action), [.inferred, .skipped, .skipped, .skipped, .skipped, .imported, .inferred])
        func item(_ key: String) -> ImportReport.Item? { report.items.first { $0.sourceKey == key } }
        XCTAssertEqual(item("archived_uid")?.note?.contains("keyed-archiver UID"), true, item("archived_uid")?.note ?? "")
        XCTAssertTrue(report.text.contains("an archived colour, set again in the app"), report.text)
        XCTAssertEqual(item("nested_uid")?.note?.hasSuffix("; the plan's rule cannot apply: a suite cannot hold the value"), true, item("nested_uid")?.note ?? "")
        XCTAssertTrue(report.text.contains("its value holds a keyed-archiver UID (a reference inside an NSKeyedArchiver archive) at /x/0, which a suite cannot hold"), report.text)
        XCTAssertTrue(report.text.contains("its value is the real number nan (JSON has no such number), which a suite cannot hold"), report.text)
        let store = try root.store(root.appID)
        XCTAssertEqual(Set(store.keys), ["fine", "lone_surrogate", "after"])
        XCTAssertEqual(store.string(forKey: "fine"), "ok")
        XCTAssertEqual(store.string(forKey: "lone_surrogate"), "a\u{FFFD}b", "replaced only because the plan says so")
    }

    func testPlanTypesConvertTypedValuesWhereNothingIsLost() throws {
        let root = ImportRoot()
        let dump = try ImportDump(contentsOfFile: PlistFixtures.path("typed.xml.plist"))
        let plan = ImportPlan(id: "typed-1", unmapped: .skip, rules: [
            .key("streak", to: .suite(type: .double)),
            .key("one_double", to: .suite(key: "one_int", type: .int)),
            .key("digits_text", to: .suite(type: .int)),
            .key("zero", to: .suite(type: .bool)),
            .key("half", to: .suite(type: .string)),
            .key("user_preferences", to: .suite(key: "raw_preferences", type: .data)),
            .key("nested", to: .suite(type: .json)),
        ])
        let report = try Importer(plan: plan, options: root.options()).run(dump)
        XCTAssertEqual(report.count(.imported), 7)
        let store = try root.store(root.appID)
        XCTAssertEqual(store.prefValue(forKey: "streak"), .double(12))
        XCTAssertEqual(store.prefValue(forKey: "one_int"), .int(1))
        XCTAssertEqual(store.prefValue(forKey: "digits_text"), .int(42))
        XCTAssertEqual(store.prefValue(forKey: "zero"), .bool(false))
        XCTAssertEqual(store.prefValue(forKey: "half"), .string("0.5"))
        XCTAssertEqual(store.prefValue(forKey: "raw_preferences"), .data(PlistFixtures.userPreferencesJSON), "the plan keeps the Codable's bytes as data")
        XCTAssertEqual(store.prefValue(forKey: "nested"), PlistFixtures.typed(binary: false).first { $0.key == "nested" }?.value)

        // A conversion that would lose something stops the import before anything is written.
        for (key, type) in [("theme_mode", ImportValueType.int), ("half", .int), ("whole_date", .bool), ("uint_max", .int), ("bytes", .json)] {
            let other = ImportRoot()
            let failing = ImportPlan(id: "typed-2", unmapped: .skip, rules: [.key(key, to: .suite(type: type))])
            XCTAssertThrowsError(try Importer(plan: failing, options: other.options()).run(dump), "\(key) → \(type)") { error in
                guard case .conversion(let failed, let failedType, _)? = error as? ImportError else { return XCTFail("\(error)") }
                XCTAssertEqual(failed, key)
                XCTAssertEqual(failedType, type)
            }
            XCTAssertEqual(other.snapshot(), [:], "\(key) → \(type): nothing written")
        }
    }

    /// Credentials in a plist, written by Foundation's own plist writer in both formats, go to the
    /// real Secret Service; flags and dates under token-like names stay settings.
    func testCredentialsGoToTheSecretServiceAndNowhereElse() throws {
        try requireSecretService()
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let root = ImportRoot()
            let service = TestService()
            let jwt = FakeToken.jwt()
            let opaque = "opaque-" + FakeToken.opaque()
            let refresh = FakeToken.opaque()
            let binarySecret = Data([0x00, 0xFF, 0x10]) + Data(FakeToken.opaque().utf8)
            let nestedToken = FakeToken.opaque()
            let codableToken = FakeToken.opaque()
            let object: [String: Any] = [
                "cached": jwt,
                "auth_token": opaque,
                "refresh_token": Data(refresh.utf8),
                "session_blob": binarySecret,
                "profile": ["name": "Amina", "access_token": nestedToken],
                "prefs_codable": Data(#"{"theme":"dark","idToken":"\#(codableToken)"}"#.utf8),
                "has_session": true,
                "token_expiry": Date(timeIntervalSince1970: 1_800_000_000),
                "theme": "dark",
            ]
            let path = root.path + "-input.plist"
            addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
            try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0).write(to: URL(fileURLWithPath: path))
            let dump = try ImportDump(contentsOfFile: path)
            let secrets = ["cached", "auth_token", "refresh_token", "session_blob", "profile", "prefs_codable"]
            let tokens = [jwt, opaque, refresh, nestedToken, codableToken]

            let dry = try Importer(options: root.options(dryRun: true, service: service.name)).run(dump)
            XCTAssertEqual(Set(dry.items(.secret).map(\.sourceKey)), Set(secrets))
            XCTAssertEqual(try service.store.accounts(), [], "a dry run stores no secret")

            let report = try Importer(options: root.options(service: service.name)).run(dump)
            XCTAssertEqual(Set(report.items(.secret).map(\.sourceKey)), Set(secrets))
            XCTAssertTrue(try service.secret("cached") == jwt)
            XCTAssertTrue(try service.secret("auth_token") == opaque)
            XCTAssertTrue(try service.secret("refresh_token") == refresh)
            XCTAssertTrue(try service.store.secretData(forAccount: "session_blob") == binarySecret, "binary data is stored as its bytes")
            XCTAssertTrue(try service.secret("profile")?.contains(nestedToken) == true)
            XCTAssertTrue(try service.secret("prefs_codable")?.contains(codableToken) == true)
            let store = try root.store(root.appID)
            XCTAssertEqual(Set(store.keys), ["has_session", "token_expiry", "theme"])
            XCTAssertEqual(store.prefValue(forKey: "has_session"), .bool(true))
            XCTAssertEqual(store.prefValue(forKey: "token_expiry"), .date(Date(timeIntervalSince1970: 1_800_000_000)))
            for token in tokens {
                XCTAssertEqual(root.filesContaining(token), [], "a file under the root holds a token")
                XCTAssertFalse(report.text.contains(token) || report.json.contains(token) || dry.text.contains(token), "a report holds a token")
            }
        }
    }

    /// What Foundation's own `UserDefaults` wrote on Linux, in a real child process: found where
    /// Foundation puts it, imported with its types, its token in the Secret Service.
    func testAPlistWrittenByFoundationsUserDefaultsImports() throws {
        try requireSecretService()
        let root = ImportRoot()
        let service = TestService()
        let home = root.path + "-home"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/config", withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/config"
        let token = FakeToken.jwt()
        let child = try runCommand(productsFolder + "/foundation-defaults-test-child", ["com.rizq.legacy"], input: token + "\n", environment: environment)
        XCTAssertEqual(child.status, 0, child.stderr)
        XCTAssertEqual(child.stdout, "synchronized\n")

        // swift-corelibs-foundation keeps a suite at $XDG_CONFIG_HOME/<suite>.plist, in XML.
        let source = home + "/config/com.rizq.legacy.plist"
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: source), "Foundation wrote no \(source)")
        XCTAssertTrue(bytes.starts(with: Data("<?xml".utf8)))
        let before = try fingerprint(source)

        let dump = try ImportDump(contentsOfFile: source)
        let report = try Importer(options: root.options(service: service.name)).run(dump)
        XCTAssertEqual(report.status, .imported)
        XCTAssertEqual(report.items(.secret).map(\.sourceKey), ["auth_token"])
        XCTAssertTrue(try service.secret("auth_token") == token)

        let store = try root.store(root.appID)
        XCTAssertEqual(store.prefValue(forKey: "has_completed_onboarding"), .bool(true))
        XCTAssertEqual(store.prefValue(forKey: "haptics_enabled"), .bool(false))
        XCTAssertEqual(store.prefValue(forKey: "current_streak"), .int(12))
        XCTAssertEqual(store.prefValue(forKey: "total_xp"), .int(Int.max))
        XCTAssertEqual(store.prefValue(forKey: "volume"), .double(0.75))
        XCTAssertEqual(store.prefValue(forKey: "zoom"), .double(1.0))
        XCTAssertEqual(store.prefValue(forKey: "theme_mode"), .string("dark"))
        XCTAssertEqual(store.prefValue(forKey: "last_used_provider"), .string("42"))
        // Foundation's XML writer keeps whole seconds: the child set …220.75.
        XCTAssertEqual(store.prefValue(forKey: "last_sync_timestamp"), .date(Date(timeIntervalSince1970: 1_732_283_220)))
        XCTAssertEqual(store.prefValue(forKey: "cached_journey_ids"), .array([.int(3), .int(14), .int(15)]))
        XCTAssertEqual(store.prefValue(forKey: "avatar"), .data(Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])))
        XCTAssertEqual(store.prefValue(forKey: "window"), .dictionary(["x": .int(10), "size": .dictionary(["w": .double(800.5), "h": .int(600)]), "tags": .array([.string("a"), .string("ب")])]))
        XCTAssertEqual(
            Key(codable: "user_preferences", default: UserPreferences(), store: store).value,
            UserPreferences(notificationsEnabled: true, hapticsEnabled: false, dailyGoal: 5, preferredTimeSlots: ["morning", "night"]))
        XCTAssertEqual(root.filesContaining(token), [])
        XCTAssertFalse(report.text.contains(token) || report.json.contains(token))
        let after = try fingerprint(source)
        XCTAssertEqual(after.0, before.0, "the source's bytes are unchanged")
        XCTAssertEqual(after.1, before.1, "the source's modification time is unchanged")
    }
}
