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

// The seed wrote `@UserDefault(.currentStreak, …)`: these two initializers keep that shorthand.
extension UserDefault {
    init(_ key: UserDefaultsKey, defaultValue: Value, store: SuiteStore = .standard) {
        self.init(key.rawValue, defaultValue: defaultValue, store: store)
    }
}

extension CodableUserDefault {
    init(_ key: UserDefaultsKey, defaultValue: Value, store: SuiteStore = .standard) {
        self.init(key.rawValue, defaultValue: defaultValue, store: store)
    }
}
