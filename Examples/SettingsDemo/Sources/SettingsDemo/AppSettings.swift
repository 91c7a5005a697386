import Foundation
import RizqPrefs

enum ThemeMode: String, CaseIterable {
    case light, dark, system
}

/// The seed app's settings object, ported: the same keys, the same defaults, the same call
/// shapes. Two edits: `import RizqPrefs`, and one line for the key enum (UserDefaultsKey.swift).
/// Examples/SeedApp ports the rest of the seed (observation, the client, the widget).
@MainActor
final class AppSettings {
    static let shared = AppSettings()

    @UserDefault(.hasCompletedOnboarding, defaultValue: false)
    var hasCompletedOnboarding: Bool

    @UserDefault(.rizqWelcomeShown, defaultValue: false)
    var rizqWelcomeShown: Bool

    @UserDefault(.currentStreak, defaultValue: 0)
    var currentStreak: Int

    @UserDefault(.totalXP, defaultValue: 0)
    var totalXP: Int

    @UserDefault(.currentLevel, defaultValue: 1)
    var currentLevel: Int

    @UserDefault(.notificationsEnabled, defaultValue: true)
    var notificationsEnabled: Bool

    @UserDefault(.hapticsEnabled, defaultValue: true)
    var hapticsEnabled: Bool

    @UserDefault(.themeMode, defaultValue: ThemeMode.system)
    var themeMode: ThemeMode

    @UserDefault(.lastUsedProvider, defaultValue: nil)
    var lastUsedProvider: String?

    @UserDefault(.lastSyncTimestamp, defaultValue: nil)
    var lastSyncTimestamp: Date?

    @UserDefault(.cachedJourneyIds, defaultValue: [])
    var cachedJourneyIds: [Int]

    @CodableUserDefault(.userPreferences, defaultValue: UserPreferences())
    var userPreferences: UserPreferences

    /// The seed's "sign out": everything back to its default.
    func reset() {
        $hasCompletedOnboarding.reset()
        $rizqWelcomeShown.reset()
        $currentStreak.reset()
        $totalXP.reset()
        $currentLevel.reset()
        $lastUsedProvider.reset()
        $lastSyncTimestamp.reset()
        $cachedJourneyIds.reset()
        $userPreferences.reset()
    }
}
