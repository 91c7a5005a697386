import Foundation
import RizqPrefs

/// The app's keys, each described once — a title, a description, a range or its choices — for
/// people and for tools: `SettingsDemo --schema` prints the JSON Schema made from these
/// declarations (shipped beside the package as `com.rizq.app.schema.json`, which a package
/// installs under `/usr/share/rizq-prefs/schemas/apps/com.rizq.app/`), and `rizq-prefs describe`,
/// `range` and `set` read it. `AppSettings`' properties are these keys.
enum SettingsKeys {
    static let hasCompletedOnboarding = Key(
        UserDefaultsKey.hasCompletedOnboarding.rawValue, default: false, title: "Onboarding completed",
        description: "Whether the user went through the first-run screens.")
    static let rizqWelcomeShown = Key(
        UserDefaultsKey.rizqWelcomeShown.rawValue, default: false, title: "Welcome shown", description: "Whether the welcome sheet was shown once.")
    static let currentStreak = Key(
        UserDefaultsKey.currentStreak.rawValue, default: 0, title: "Current streak", description: "Days in a row with a completed lesson.",
        range: 0...36_500)
    static let totalXP = Key(
        UserDefaultsKey.totalXP.rawValue, default: 0, title: "Total XP", description: "Experience points earned, all lessons together.", range: 0...100_000_000)
    static let currentLevel = Key(
        UserDefaultsKey.currentLevel.rawValue, default: 1, title: "Level", description: "The user's level: one more for every 100 XP.", range: 1...1_000_000)
    static let notificationsEnabled = Key(
        UserDefaultsKey.notificationsEnabled.rawValue, default: true, title: "Notifications", description: "Whether the app may send reminders.")
    static let hapticsEnabled = Key(
        UserDefaultsKey.hapticsEnabled.rawValue, default: true, title: "Haptics", description: "Whether the app vibrates on taps, where it can.")
    static let themeMode = Key(
        UserDefaultsKey.themeMode.rawValue, default: ThemeMode.system, title: "Theme", description: "Light, dark, or as the system is.")
    static let lastUsedProvider = Key<String?>(
        UserDefaultsKey.lastUsedProvider.rawValue, default: nil, title: "Last sign-in provider",
        description: "The provider the user last signed in with, offered first next time.", choices: ["google", "apple", "email"])
    static let lastSyncTimestamp = Key<Date?>(
        UserDefaultsKey.lastSyncTimestamp.rawValue, default: nil, title: "Last sync", description: "When the app last synced with the server.")
    static let cachedJourneyIds = Key<[Int]>(
        UserDefaultsKey.cachedJourneyIds.rawValue, default: [], title: "Cached journeys", description: "Journeys kept for offline use.",
        deprecated: "journeys are cached by the server now; the key is kept for older versions")
    static let userPreferences = Key(
        codable: UserDefaultsKey.userPreferences.rawValue, default: UserPreferences(), title: "Preferences",
        description: "Reminders, haptics, the daily goal and the preferred times of day.")

    /// Every key, for the schema.
    static var all: [any AnyPrefKey] {
        [hasCompletedOnboarding, rizqWelcomeShown, currentStreak, totalXP, currentLevel, notificationsEnabled, hapticsEnabled, themeMode,
         lastUsedProvider, lastSyncTimestamp, cachedJourneyIds, userPreferences]
    }

    /// The suite's schema, made from the declarations above.
    static var schema: PrefSchema {
        PrefSchema(title: "com.rizq.app", description: "The settings of the Rizq learning app (Examples/SettingsDemo).", keys: all)
    }
}
