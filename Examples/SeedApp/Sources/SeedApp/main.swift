import Foundation
import Observation
import RizqPrefs
import RizqSecrets  // SecretServiceStore: where SettingsSchema moves the auth token

// LINUX EDIT 6 (the entry point; on iOS the @main App): an executable has no bundle id, so the app
// names itself; RIZQ_PREFS_APP_ID, when set, still wins.
SuiteStore.configure(appID: "com.rizq.app")

// The settings' schema (SettingsSchema.swift): a file written by an older version of the app is
// brought to this version's shape before the first read. --migration-preview prints what that
// would change, stage by stage, and writes nothing.
do {
    let schema = try SettingsSchema.current(keyring: SecretServiceStore(service: "com.rizq.app"))
    if CommandLine.arguments.contains("--migration-preview") {
        print(try SuiteStore.previewMigration(suite: UserDefaults.standard.suiteName, migrations: schema))
        exit(0)
    }
    print("schema version \(try UserDefaults.standard(migrations: schema).schemaVersion)")
} catch {
    print("could not bring the settings up to date: \(error)")
    exit(1)
}

let settings = AppSettings.shared
let client = PreferencesClient.live
let widget = StreakWidget()

print("suite file: \(UserDefaults.standard.location.path)")
print("first run? \(!settings.hasCompletedOnboarding) — streak \(client.currentStreak()), theme \(client.themeMode())")

// Observed like any @Observable property: the change below is reported before it is made.
withObservationTracking {
    _ = settings.currentStreak
} onChange: {
    print("observed: currentStreak is about to change")
}

settings.hasCompletedOnboarding = true
client.recordActivity(50)
client.setThemeMode(.dark)
var preferences = client.userPreferences()
preferences.dailyGoal = 5
preferences.preferredTimeSlots = [.morning, .night]
client.setUserPreferences(preferences)
settings.cachedJourneyIds = [3, 7, 12]
settings.lastUsedProvider = "google"
widget.streak = settings.currentStreak

do {
    try UserDefaults.standard.flush()
    try UserDefaults(suiteName: "group.com.rizq.app")?.flush()
} catch {
    print("could not save: \(error)")
    exit(1)
}

print("after this run: streak \(settings.currentStreak), xp \(settings.totalXP), level \(settings.currentLevel), theme \(settings.themeMode)")
print("widget (group.com.rizq.app): \(widget.text)")
print("daily goal \(settings.userPreferences.dailyGoal), slots \(settings.userPreferences.preferredTimeSlots.map(\.rawValue))")

if CommandLine.arguments.contains("--reset") {
    client.resetAll()
    print("reset: streak \(settings.currentStreak), theme \(settings.themeMode), onboarding done? \(settings.hasCompletedOnboarding)")
}
