import Foundation

/// The seed's dependency client: a struct of closures, so that features take their preferences
/// from it and tests or previews can hand them another one (in the app, a TCA dependency; here
/// the same shape without TCA). Unchanged on Linux.
struct PreferencesClient: Sendable {
    var userPreferences: @MainActor @Sendable () -> UserPreferences
    var setUserPreferences: @MainActor @Sendable (UserPreferences) -> Void
    var currentStreak: @MainActor @Sendable () -> Int
    var recordActivity: @MainActor @Sendable (_ xp: Int) -> Void
    var themeMode: @MainActor @Sendable () -> ThemeMode
    var setThemeMode: @MainActor @Sendable (ThemeMode) -> Void
    var resetAll: @MainActor @Sendable () -> Void
}

extension PreferencesClient {
    /// The app's preferences, through AppSettings.
    static let live = PreferencesClient(
        userPreferences: { AppSettings.shared.userPreferences },
        setUserPreferences: { AppSettings.shared.userPreferences = $0 },
        currentStreak: { AppSettings.shared.currentStreak },
        recordActivity: { xp in
            let settings = AppSettings.shared
            settings.currentStreak += 1
            settings.totalXP += xp
            settings.currentLevel = settings.totalXP / 100 + 1
            settings.lastSyncTimestamp = Date()
        },
        themeMode: { AppSettings.shared.themeMode },
        setThemeMode: { AppSettings.shared.themeMode = $0 },
        resetAll: { AppSettings.shared.resetAll() })

    /// For previews and tests: preferences that live in memory and start at the defaults.
    static func inMemory() -> PreferencesClient {
        final class Storage: @unchecked Sendable {
            var preferences = UserPreferences()
            var streak = 0
            var theme = ThemeMode.system
        }
        let storage = Storage()
        return PreferencesClient(
            userPreferences: { storage.preferences },
            setUserPreferences: { storage.preferences = $0 },
            currentStreak: { storage.streak },
            recordActivity: { _ in storage.streak += 1 },
            themeMode: { storage.theme },
            setThemeMode: { storage.theme = $0 },
            resetAll: { storage.preferences = UserPreferences(); storage.streak = 0; storage.theme = .system })
    }
}
