import Foundation
import RizqPrefs
import XCTest

/// The seed example's schema (Examples/SeedApp's SettingsSchema.swift, the v1 → v2 → v3 chain)
/// on files each older version of the app wrote: the app's own wrappers read the migrated
/// values, the token ends in the keyring and in no file, and the dry run shows each stage
/// without writing or showing the token.
final class SettingsSchemaTests: XCTestCase {
    private var root = ""
    private let suite = "com.rizq.seed-schema"
    private let keyring = InMemorySecretStore(service: "com.rizq.app")
    /// Stands for a real token; never printed.
    private let token = "tok-" + UUID().uuidString

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "rizq-seed-schema-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/apps/tests", withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    private var path: String { root + "/apps/tests/\(suite).json" }

    private func writeFile(_ object: [String: Any]) throws {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
    }

    private func fileObject() throws -> NSDictionary {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    /// What the app wrote before it recorded a version (0).
    private var version0: [String: Any] {
        [
            "lastUsedProvider": "google",
            "daily_goal": "05",
            "user_preferences": ["notificationsEnabled": false, "hapticsEnabled": true, "dailyGoal": 3],
            "auth_token": token,
            "current_streak": 4,
        ]
    }

    private func open() throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: "tests", root: root, migrations: SettingsSchema.current(keyring: keyring))
    }

    func testAVersion0FileIsBroughtToVersion3AndTheAppsWrappersReadIt() throws {
        try writeFile(version0)
        let store = try open()
        XCTAssertEqual(store.schemaVersion, 3)
        XCTAssertEqual(Set(store.keys), ["last_used_provider", "user_preferences", "current_streak"])
        // Read through the seed's own declarations, as AppSettings reads the standard suite.
        let provider = UserDefault<String?>(.lastUsedProvider, defaultValue: nil, store: store)
        let preferences = CodableUserDefault(.userPreferences, defaultValue: UserPreferences(), store: store)
        XCTAssertEqual(provider.wrappedValue, "google")
        XCTAssertEqual(
            preferences.wrappedValue,
            UserPreferences(notificationsEnabled: false, hapticsEnabled: true, dailyGoal: 5, preferredTimeSlots: [.morning, .evening]))
        XCTAssertTrue(try keyring.secret(forAccount: "auth_token") == token, "the token is in the keyring")
        let file = try fileObject()
        XCTAssertEqual(file["$schemaVersion"] as? Int, 3)
        XCTAssertNil(file["auth_token"])
        XCTAssertFalse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains(token))
    }

    func testAVersion1FileRunsOnlyTheLaterStages() throws {
        // Version 1: renamed and converted already; a daily goal that stage 0 → 1 would have
        // dropped ("x") cannot be here.
        try writeFile([
            "$schemaVersion": 1, "last_used_provider": "apple", "daily_goal": 8,
            "user_preferences": ["notificationsEnabled": true, "hapticsEnabled": false, "dailyGoal": 3],
        ])
        let store = try open()
        XCTAssertEqual(store.schemaVersion, 3)
        let preferences = CodableUserDefault(.userPreferences, defaultValue: UserPreferences(), store: store)
        XCTAssertEqual(preferences.wrappedValue.dailyGoal, 8)
        XCTAssertEqual(preferences.wrappedValue.hapticsEnabled, false)
        XCTAssertNil(store.object(forKey: "daily_goal"))
        XCTAssertEqual(store.string(forKey: "last_used_provider"), "apple")
        XCTAssertNil(try keyring.secret(forAccount: "auth_token"), "no token was in the file")
    }

    func testAFreshSuiteStartsAtVersion3() throws {
        let store = try open()
        XCTAssertEqual(store.schemaVersion, 3)
        XCTAssertEqual(store.keys, [])
        // The schema records the app that migrated the file (issue 29: a second app whose stages
        // cannot run is told so from it).
        XCTAssertEqual(try fileObject(), ["$schemaVersion": 3, "$schemaApp": "tests"])
    }

    func testTheDryRunShowsEachStageWritesNothingAndNeverShowsTheToken() throws {
        try writeFile(version0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let preview = try SuiteStore.previewMigration(suite: suite, appID: "tests", root: root, migrations: SettingsSchema.current(keyring: keyring))
        let text = preview.description
        XCTAssertTrue(text.contains("version 0 → 3"), text)
        for line in [
            "stage 0 → 1", "lastUsedProvider: \"google\" → (removed)", "last_used_provider: (absent) → \"google\"",
            "daily_goal: \"05\" → 5", "stage 1 → 2", "daily_goal: 5 → (removed)", "stage 2 → 3",
            "auth_token: (secret) → moved to secret store com.rizq.app, account auth_token",
        ] {
            XCTAssertTrue(text.contains(line), "the preview lacks \(line)")
        }
        XCTAssertFalse(text.contains(token), "the preview shows the token")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the dry run wrote the file")
        XCTAssertNil(try keyring.secret(forAccount: "auth_token"), "the dry run wrote the keyring")
    }

    func testAGoalThatIsNoNumberIsDroppedAndTheDefaultRead() throws {
        try writeFile(["daily_goal": "lots"])
        let store = try open()
        let preferences = CodableUserDefault(.userPreferences, defaultValue: UserPreferences(), store: store)
        XCTAssertEqual(preferences.wrappedValue, UserPreferences())
        XCTAssertEqual(store.keys, [])
    }
}
