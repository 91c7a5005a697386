import RizqPrefs

/// The seed app's keys, unchanged.
enum UserDefaultsKey: String {
    case hasCompletedOnboarding = "has_completed_onboarding"
    case rizqWelcomeShown = "rizq_welcome_shown"
    case currentStreak = "current_streak"
    case totalXP = "total_xp"
    case currentLevel = "current_level"
    case notificationsEnabled = "notifications_enabled"
    case hapticsEnabled = "haptics_enabled"
    case themeMode = "theme_mode"
    case lastUsedProvider = "last_used_provider"
    case lastSyncTimestamp = "last_sync_timestamp"
    case cachedJourneyIds = "cached_journey_ids"
    case userPreferences = "user_preferences"
}

// The seed wrote `@UserDefault(.currentStreak, …)`: this one line keeps that form for every
// property wrapper (Swift finds `.currentStreak` only through a parameter of this enum's type).
extension PreferenceWrapper { init(_ key: UserDefaultsKey, defaultValue: Value, store: SuiteStore = .standard) { self.init(name: key.rawValue, defaultValue: defaultValue, store: store) } }
