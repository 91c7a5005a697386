import RizqPrefs

enum ThemeMode: String, UserDefaultValue {
    case light, dark, system
}

/// The native app's view of what the web app kept in `localStorage`, after the import: plain
/// `@UserDefault` / `@CodableUserDefault` properties over the suites the plan wrote.
struct ImportedSettings: Sendable {
    static let activity: SuiteStore = {
        do {
            return try SuiteStore(suite: "com.rizq.app.activity")
        } catch {
            print("cannot open the activity suite: \(error)")
            return .standard
        }
    }()

    @UserDefault("rizq_welcome_shown", defaultValue: false)
    var welcomeShown: Bool

    @UserDefault("last_used_provider", defaultValue: nil)
    var lastUsedProvider: String?

    @UserDefault("theme_mode", defaultValue: ThemeMode.system)
    var themeMode: ThemeMode

    @CodableUserDefault("rizq_user_habits", defaultValue: UserHabits())
    var habits: UserHabits

    @CodableUserDefault("rizq_user_profile", defaultValue: nil)
    var profile: UserProfile?

    @CodableUserDefault("daily_activity", defaultValue: [:], store: ImportedSettings.activity)
    var dailyActivity: [String: DailyActivity]
}
