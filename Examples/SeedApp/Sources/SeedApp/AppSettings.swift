import Foundation
import Observation
import RizqPrefs  // LINUX EDIT 1 (see UserDefaultsKey.swift).

/// The seed's theme: a plain String enum, stored as its raw value with no declaration.
enum ThemeMode: String, CaseIterable {
    case light, dark, system
}

/// The seed app's settings, as they were. On Linux the @UserDefault properties are observed:
/// a change — here, through another object, or by another process such as the widget — makes
/// `withObservationTracking` (and so a view) see it.
@MainActor
@Observable
final class AppSettings {
    static let shared = AppSettings()

    @ObservationIgnored @UserDefault(.hasCompletedOnboarding, defaultValue: false)
    var hasCompletedOnboarding: Bool

    @ObservationIgnored @UserDefault(.rizqWelcomeShown, defaultValue: false)
    var rizqWelcomeShown: Bool

    @ObservationIgnored @UserDefault(.currentStreak, defaultValue: 0)
    var currentStreak: Int

    @ObservationIgnored @UserDefault(.totalXP, defaultValue: 0)
    var totalXP: Int

    @ObservationIgnored @UserDefault(.currentLevel, defaultValue: 1)
    var currentLevel: Int

    @ObservationIgnored @UserDefault(.notificationsEnabled, defaultValue: true)
    var notificationsEnabled: Bool

    @ObservationIgnored @UserDefault(.hapticsEnabled, defaultValue: true)
    var hapticsEnabled: Bool

    @ObservationIgnored @UserDefault(.themeMode, defaultValue: ThemeMode.system)
    var themeMode: ThemeMode

    @ObservationIgnored @UserDefault(.lastUsedProvider, defaultValue: nil)
    var lastUsedProvider: String?

    @ObservationIgnored @UserDefault(.lastSyncTimestamp, defaultValue: nil)
    var lastSyncTimestamp: Date?

    @ObservationIgnored @UserDefault(.cachedJourneyIds, defaultValue: [])
    var cachedJourneyIds: [Int]

    @ObservationIgnored @CodableUserDefault(.userPreferences, defaultValue: UserPreferences())
    var userPreferences: UserPreferences

    /// The seed's sign-out: everything the app stored, gone.
    func resetAll() {
        // LINUX EDIT 4: was `removePersistentDomain(forName: Bundle.main.bundleIdentifier!)`. A Linux
        // executable has no bundle identifier (the `!` would crash); removeAll() empties the app's
        // standard suite, which is named after the app id instead.
        UserDefaults.standard.removeAll()
    }
}
