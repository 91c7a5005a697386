import Foundation
import RizqPrefs  // LINUX EDIT 1: the suite store and the property wrappers (in each file that uses them).

// LINUX EDIT 2: every `UserDefaults` of the app now means the suite store, so no call left behind
// can write Foundation's own store, which nothing else on Linux reads (it compiles and is lost).
typealias UserDefaults = SuiteStore

/// The seed app's keys, as they were.
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

// LINUX EDIT 3: the seed's own UserDefault and CodableUserDefault wrappers (deleted: RizqPrefs has
// them) took this enum, for `@UserDefault(.currentStreak, …)`. This one line gives RizqPrefs's
// wrappers that form: Swift finds `.currentStreak` only through a parameter of this enum's type.
extension PreferenceWrapper { init(_ key: UserDefaultsKey, defaultValue: Value, store: UserDefaults = .standard) { self.init(name: key.rawValue, defaultValue: defaultValue, store: store) } }
