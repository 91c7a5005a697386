import Foundation
import Observation
import RizqPrefs
import XCTest
@_exported import RizqTestSupport

/// The seed app's code as Examples/SeedApp holds it (SeedApp/ links to those files): its
/// defaults, what it writes and where, the sign-out without a bundle id, the widget's group
/// suite, the client of closures, and `AppSettings` observed through Observation — also when
/// another process (the real `rizq-prefs`) changes a key.
///
/// Every test runs in one temporary home under one app id: `AppSettings.shared` opens the
/// standard suite once, as the app does.
final class SeedAppTests: XCTestCase {
    private static let home = NSTemporaryDirectory() + "rizq-seed-\(UUID().uuidString.prefix(8))"
    private static let appID = "com.rizq.seed-test"

    override class func setUp() {
        setenv("RIZQ_PREFS_HOME", home, 1)
        setenv("RIZQ_PREFS_APP_ID", appID, 1)
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    override func setUp() {
        SuiteStore.standard.removeAll()
        SuiteStore(suiteName: "group.com.rizq.app")?.removeAll()
    }

    private static var standardFile: String { Self.home + "/apps/\(Self.appID)/\(Self.appID).json" }

    private static func fileObject(_ path: String) throws -> [String: Any] {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path), "no file at \(path)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `rizq-prefs`, built beside this test bundle: a real other process on the same files.
    private static func cli(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let binary = URL(fileURLWithPath: testBinary).deletingLastPathComponent().path + "/rizq-prefs"
        return try runCommand(binary, arguments, environment: ProcessInfo.processInfo.environment)
    }

    // XCTest on Linux runs synchronous tests on the main thread but cannot call a @MainActor
    // test method: the tests assume the isolation instead.

    func testTheSeedsDefaultsAndWhatItWritesAreReadBack() throws {
        try MainActor.assumeIsolated { try Self.checkTheSeedsDefaultsAndWhatItWritesAreReadBack() }
    }

    @MainActor
    private static func checkTheSeedsDefaultsAndWhatItWritesAreReadBack() throws {
        let settings = AppSettings()
        XCTAssertFalse(settings.hasCompletedOnboarding)
        XCTAssertEqual(settings.currentStreak, 0)
        XCTAssertEqual(settings.currentLevel, 1)
        XCTAssertTrue(settings.notificationsEnabled)
        XCTAssertEqual(settings.themeMode, .system)
        XCTAssertNil(settings.lastUsedProvider)
        XCTAssertNil(settings.lastSyncTimestamp)
        XCTAssertEqual(settings.cachedJourneyIds, [])
        XCTAssertEqual(settings.userPreferences, UserPreferences())
        // As with Defaults, the keys' defaults answer the suite's untyped readers.
        XCTAssertEqual(UserDefaults.standard.integer(forKey: "current_level"), 1)

        let synced = Date(timeIntervalSince1970: 1_763_819_220.5)
        settings.hasCompletedOnboarding = true
        settings.currentStreak = 12
        settings.themeMode = .dark
        settings.lastUsedProvider = "apple"
        settings.lastSyncTimestamp = synced
        settings.cachedJourneyIds = [1, 2]
        settings.userPreferences.preferredTimeSlots = [.night]
        try UserDefaults.standard.flush()

        let again = AppSettings()
        XCTAssertTrue(again.hasCompletedOnboarding)
        XCTAssertEqual(again.currentStreak, 12)
        XCTAssertEqual(again.themeMode, .dark)
        XCTAssertEqual(again.lastUsedProvider, "apple")
        XCTAssertEqual(again.lastSyncTimestamp, synced)
        XCTAssertEqual(again.cachedJourneyIds, [1, 2])
        XCTAssertEqual(again.userPreferences.preferredTimeSlots, [.night])

        let file = try Self.fileObject(Self.standardFile)
        XCTAssertEqual(file["current_streak"] as? Int, 12)
        XCTAssertEqual(file["theme_mode"] as? String, "dark", "the enum as its raw value")
        XCTAssertEqual((file["user_preferences"] as? [String: Any])?["preferredTimeSlots"] as? [String], ["night"])
        XCTAssertEqual(try Self.cli("get", "current_streak").stdout, "12\n", "another process reads what the app wrote")
    }

    func testTheSignOutClearsTheStandardSuiteWithoutABundleID() throws {
        try MainActor.assumeIsolated { try Self.checkTheSignOutClearsTheStandardSuiteWithoutABundleID() }
    }

    @MainActor
    private static func checkTheSignOutClearsTheStandardSuiteWithoutABundleID() throws {
        XCTAssertNil(Bundle.main.bundleIdentifier, "why the seed's line had to change: it would crash here")
        let settings = AppSettings()
        settings.currentStreak = 5
        settings.themeMode = .light
        try UserDefaults.standard.flush()
        settings.resetAll()
        XCTAssertEqual(settings.currentStreak, 0)
        XCTAssertEqual(settings.themeMode, .system)
        try UserDefaults.standard.flush()
        XCTAssertEqual(try Self.fileObject(Self.standardFile).count, 0, "the file is {}")
    }

    func testALeftoverUserDefaultsIsTheSuiteStore() {
        // The seed's `typealias UserDefaults = SuiteStore`: no line of the app reaches Foundation's.
        XCTAssertTrue(UserDefaults.standard === SuiteStore.standard)
        XCTAssertTrue(type(of: UserDefaults(suiteName: "group.com.rizq.app")) == SuiteStore?.self)
    }

    func testTheWidgetsAppStorageLineSharesTheGroupSuiteWithOtherProcesses() throws {
        let widget = StreakWidget()
        XCTAssertEqual(widget.streak, 0)
        widget.streak = 5
        try XCTUnwrap(UserDefaults(suiteName: "group.com.rizq.app")).flush()
        XCTAssertEqual(try Self.fileObject(Self.home + "/groups/group.com.rizq.app.json")["streak"] as? Int, 5)
        XCTAssertEqual(try Self.cli("get", "--suite", "group.com.rizq.app", "streak").stdout, "5\n")

        XCTAssertEqual(try Self.cli("set", "--suite", "group.com.rizq.app", "streak", "9", "--int").status, 0)
        XCTAssertTrue(try XCTUnwrap(UserDefaults(suiteName: "group.com.rizq.app")).synchronize())
        XCTAssertEqual(StreakWidget().streak, 9)
        XCTAssertEqual(StreakWidget().text, "🔥 9 days")
    }

    func testThePreferencesClient() {
        MainActor.assumeIsolated { Self.checkThePreferencesClient() }
    }

    @MainActor
    private static func checkThePreferencesClient() {
        let live = PreferencesClient.live
        live.recordActivity(150)
        live.setThemeMode(.dark)
        var preferences = live.userPreferences()
        preferences.dailyGoal = 7
        live.setUserPreferences(preferences)
        XCTAssertEqual(live.currentStreak(), 1)
        XCTAssertEqual(AppSettings.shared.currentLevel, 2)
        XCTAssertEqual(AppSettings().userPreferences.dailyGoal, 7, "another AppSettings reads the same suite")
        live.resetAll()
        XCTAssertEqual(live.currentStreak(), 0)
        XCTAssertEqual(live.themeMode(), .system)

        let preview = PreferencesClient.inMemory()
        preview.recordActivity(10)
        XCTAssertEqual(preview.currentStreak(), 1)
        XCTAssertEqual(live.currentStreak(), 0, "the in-memory client touches no suite")
    }

    func testAppSettingsIsObservedForChangesHereAndInAnotherProcess() throws {
        try MainActor.assumeIsolated { try Self.checkAppSettingsIsObservedForChangesHereAndInAnotherProcess() }
    }

    @MainActor
    private static func checkAppSettingsIsObservedForChangesHereAndInAnotherProcess() throws {
        let settings = AppSettings()
        let local = XCTestExpectation(description: "a change through the property")
        withObservationTracking { _ = settings.totalXP } onChange: { local.fulfill() }
        settings.totalXP = 10
        XCTAssertEqual(XCTWaiter().wait(for: [local], timeout: 0), .completed, "fired inside the setter")

        let otherObject = XCTestExpectation(description: "a change through another AppSettings")
        withObservationTracking { _ = settings.themeMode } onChange: { otherObject.fulfill() }
        AppSettings().themeMode = .dark
        XCTAssertEqual(XCTWaiter().wait(for: [otherObject], timeout: 10), .completed)

        let otherProcess = XCTestExpectation(description: "a change by rizq-prefs")
        withObservationTracking { _ = settings.currentStreak } onChange: { otherProcess.fulfill() }
        let result = try Self.cli("set", "current_streak", "42", "--int")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(XCTWaiter().wait(for: [otherProcess], timeout: 10), .completed)
        XCTAssertEqual(settings.currentStreak, 42)
    }
}
