import Foundation
import XCTest
import RizqTestSupport
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// The seed app's plan and sample dump (Examples/ImportRizqWeb) do what its README says, read
/// back through `@UserDefault` and `@CodableUserDefault` as the native app reads them.
final class ExamplePlanTests: XCTestCase {
    private struct CustomHabit: Codable, Equatable {
        var id: String
        var duaId: Int
        var duaTitle: String
        var timeSlot: String
        var addedAt: String
    }

    private struct UserHabits: Codable, Equatable {
        var activeJourneyIds: [Int] = []
        var customHabits: [CustomHabit] = []
        var habitCompletions: [String: [Int]] = [:]
    }

    private struct UserProfile: Codable, Equatable {
        var displayName: String
        var level: Int
        var isAdmin: Bool
    }

    private struct DailyActivity: Codable, Equatable {
        var duasCompleted: [Int]
        var xpEarned: Int
    }

    private final class Settings: Sendable {
        let welcomeShown: UserDefault<Bool>
        let provider: UserDefault<String?>
        let theme: UserDefault<String>
        let habits: CodableUserDefault<UserHabits>
        let profile: CodableUserDefault<UserProfile?>
        let activity: CodableUserDefault<[String: DailyActivity]>

        init(main: SuiteStore, activity: SuiteStore) {
            welcomeShown = UserDefault("rizq_welcome_shown", defaultValue: false, store: main)
            provider = UserDefault("last_used_provider", defaultValue: nil, store: main)
            theme = UserDefault("theme_mode", defaultValue: "system", store: main)
            habits = CodableUserDefault("rizq_user_habits", defaultValue: UserHabits(), store: main)
            profile = CodableUserDefault("rizq_user_profile", defaultValue: nil, store: main)
            self.activity = CodableUserDefault("daily_activity", defaultValue: [:], store: activity)
        }
    }

    private var exampleFolder: String {
        repositoryRoot().appendingPathComponent("Examples/ImportRizqWeb").path
    }

    func testTheSeedAppsPlanImportsTheSampleDump() throws {
        try requireSecretService()
        let root = ImportRoot()
        let service = TestService()
        let dump = try ImportDump(contentsOfFile: exampleFolder + "/rizq-web-localstorage.json")
        let plan = try ImportPlan(contentsOfFile: exampleFolder + "/rizq-web.plan.json")
        XCTAssertEqual(plan.defaultSuite, "com.rizq.app")
        let options = Importer.Options(secretService: service.name, appID: "com.rizq.app", root: root.path)
        let report = try Importer(plan: plan, options: options).run(dump)
        XCTAssertEqual(report.count(.imported), 6)
        XCTAssertEqual(report.count(.secret), 1)
        XCTAssertEqual(report.count(.skipped), 2)

        let main = try SuiteStore(suite: "com.rizq.app", appID: "com.rizq.app", root: root.path)
        let activity = try SuiteStore(suite: "com.rizq.app.activity", appID: "com.rizq.app", root: root.path)
        let settings = Settings(main: main, activity: activity)
        XCTAssertEqual(settings.welcomeShown.wrappedValue, true)
        XCTAssertEqual(settings.provider.wrappedValue, "google")
        XCTAssertEqual(settings.theme.wrappedValue, "dark")
        XCTAssertEqual(settings.habits.wrappedValue.activeJourneyIds, [1, 4])
        XCTAssertEqual(settings.habits.wrappedValue.customHabits.map(\.duaId), [12, 31])
        XCTAssertEqual(settings.habits.wrappedValue.habitCompletions["2026-11-20"], [12, 31])
        XCTAssertEqual(settings.profile.wrappedValue, UserProfile(displayName: "Amina", level: 15, isAdmin: false))
        XCTAssertEqual(settings.activity.wrappedValue["2026-11-21"], DailyActivity(duasCompleted: [12], xpEarned: 15))
        XCTAssertNil(main.prefValue(forKey: "daily_activity"), "the activity has its own suite")
        XCTAssertNil(main.prefValue(forKey: "lastUsedProvider"), "renamed by the plan")

        let session = try XCTUnwrap(try service.secret("firebase_auth_user"))
        XCTAssertTrue(session.contains("stsTokenManager"))
        XCTAssertEqual(root.filesContaining("stsTokenManager"), [])
        XCTAssertEqual(root.filesContaining("FAKE-demo-refresh-token"), [])
    }
}
