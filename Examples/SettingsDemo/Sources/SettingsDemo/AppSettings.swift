import Foundation
import RizqPrefs

enum ThemeMode: String, CaseIterable {
    case light, dark, system
}

/// The seed app's settings object, ported: the same keys, the same defaults, the same call
/// shapes. Each property is a key declared once, with what it is (SettingsKeys.swift): the
/// suite's schema is made from those declarations. (The seed's own form,
/// `@UserDefault(.currentStreak, defaultValue: 0)`, works too: UserDefaultsKey.swift.)
/// Examples/SeedApp ports the rest of the seed (observation, the client, the widget).
@MainActor
final class AppSettings {
    static let shared = AppSettings()

    @UserDefault(SettingsKeys.hasCompletedOnboarding)
    var hasCompletedOnboarding: Bool

    @UserDefault(SettingsKeys.rizqWelcomeShown)
    var rizqWelcomeShown: Bool

    @UserDefault(SettingsKeys.currentStreak)
    var currentStreak: Int

    @UserDefault(SettingsKeys.totalXP)
    var totalXP: Int

    @UserDefault(SettingsKeys.currentLevel)
    var currentLevel: Int

    @UserDefault(SettingsKeys.notificationsEnabled)
    var notificationsEnabled: Bool

    @UserDefault(SettingsKeys.hapticsEnabled)
    var hapticsEnabled: Bool

    @UserDefault(SettingsKeys.themeMode)
    var themeMode: ThemeMode

    @UserDefault(SettingsKeys.lastUsedProvider)
    var lastUsedProvider: String?

    @UserDefault(SettingsKeys.lastSyncTimestamp)
    var lastSyncTimestamp: Date?

    @UserDefault(SettingsKeys.cachedJourneyIds)
    var cachedJourneyIds: [Int]

    @CodableUserDefault(SettingsKeys.userPreferences)
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
