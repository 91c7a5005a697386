import Foundation
import XCTest
@testable import RizqPrefs

/// The seed app's AppSettings, compiled here from Examples/SettingsDemo (SeedPort/ links to its
/// sources), with the seed's call shapes.
final class SeedPortTests: XCTestCase {
    // XCTest on Linux runs synchronous tests on the main thread but cannot call a @MainActor
    // test method: assume the isolation instead.
    func testAppSettingsPortReadsBackWhatItWrote() throws {
        try MainActor.assumeIsolated { try Self.checkAppSettingsPort() }
    }

    @MainActor
    private static func checkAppSettingsPort() throws {
        let root = TemporaryRoot()
        setenv("RIZQ_PREFS_HOME", root.path, 1)
        setenv("RIZQ_PREFS_APP_ID", "com.rizq.seed-port", 1)
        defer {
            unsetenv("RIZQ_PREFS_HOME")
            unsetenv("RIZQ_PREFS_APP_ID")
        }
        let settings = AppSettings()
        // The seed's defaults.
        XCTAssertFalse(settings.hasCompletedOnboarding)
        XCTAssertFalse(settings.rizqWelcomeShown)
        XCTAssertEqual(settings.currentStreak, 0)
        XCTAssertEqual(settings.totalXP, 0)
        XCTAssertEqual(settings.currentLevel, 1)
        XCTAssertTrue(settings.notificationsEnabled)
        XCTAssertTrue(settings.hapticsEnabled)
        XCTAssertEqual(settings.themeMode, .system)
        XCTAssertNil(settings.lastUsedProvider)
        XCTAssertNil(settings.lastSyncTimestamp)
        XCTAssertEqual(settings.cachedJourneyIds, [])
        XCTAssertEqual(settings.userPreferences, UserPreferences())

        let synced = Date(timeIntervalSince1970: 1_763_819_220.5)
        settings.hasCompletedOnboarding = true
        settings.currentStreak = 12
        settings.themeMode = .dark
        settings.lastUsedProvider = "apple"
        settings.lastSyncTimestamp = synced
        settings.cachedJourneyIds = [1, 2]
        settings.userPreferences.preferredTimeSlots = [.night]
        try SuiteStore.standard.flush()

        let again = AppSettings()
        XCTAssertTrue(again.hasCompletedOnboarding)
        XCTAssertEqual(again.currentStreak, 12)
        XCTAssertEqual(again.themeMode, .dark)
        XCTAssertEqual(again.lastUsedProvider, "apple")
        XCTAssertEqual(again.lastSyncTimestamp, synced)
        XCTAssertEqual(again.cachedJourneyIds, [1, 2])
        XCTAssertEqual(again.userPreferences.preferredTimeSlots, [.night])

        let path = root.path + "/apps/com.rizq.seed-port/com.rizq.seed-port.json"
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(FileManager.default.contents(atPath: path))) as? [String: Any])
        XCTAssertEqual(object["current_streak"] as? Int, 12)
        XCTAssertEqual(object["theme_mode"] as? String, "dark")
        XCTAssertEqual((object["user_preferences"] as? [String: Any])?["preferredTimeSlots"] as? [String], ["night"])

        again.reset()
        XCTAssertEqual(settings.currentStreak, 0)
        XCTAssertNil(settings.lastSyncTimestamp)
    }
}
