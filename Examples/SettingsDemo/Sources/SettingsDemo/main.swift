import Foundation
import RizqPrefs

SuiteStore.configure(appID: "com.rizq.app")
// `SettingsDemo --schema`: the suite's JSON Schema, made from the key declarations (what
// com.rizq.app.schema.json beside the package holds; scripts/demo installs it).
if CommandLine.arguments.dropFirst().first == "--schema" {
    FileHandle.standardOutput.write(SettingsKeys.schema.jsonData())
    exit(0)
}
let settings = AppSettings.shared
let store = SuiteStore.standard

print("suite file: \(store.location.path)")
print("first run? \(!settings.hasCompletedOnboarding) — streak \(settings.currentStreak), level \(settings.currentLevel), theme \(settings.themeMode)")

settings.hasCompletedOnboarding = true
settings.rizqWelcomeShown = true
settings.currentStreak += 1
settings.totalXP += 50
settings.currentLevel = settings.totalXP / 100 + 1
settings.themeMode = .dark
settings.lastUsedProvider = "google"
settings.lastSyncTimestamp = Date()
settings.cachedJourneyIds = [3, 7, 12]
settings.userPreferences.dailyGoal = 5
settings.userPreferences.preferredTimeSlots = [.morning, .night]

do {
    try store.flush()
} catch {
    print("could not save: \(error)")
    exit(1)
}

print("after this run: streak \(settings.currentStreak), xp \(settings.totalXP), level \(settings.currentLevel), theme \(settings.themeMode)")
print("provider \(settings.lastUsedProvider ?? "none"), journeys \(settings.cachedJourneyIds), daily goal \(settings.userPreferences.dailyGoal), slots \(settings.userPreferences.preferredTimeSlots.map(\.rawValue))")
print("\n\(store.location.path):")
print(String(decoding: FileManager.default.contents(atPath: store.location.path) ?? Data(), as: UTF8.self))

// An administrator may lock a key (the managed layer): the app reads the locked value and greys
// out the control.
let theme = settings.$themeMode
print("theme \(settings.themeMode): " + (theme.isForced ? "locked by an administrator (\(theme.source?.path ?? "?")); the app shows it greyed out" : "the user's to change"))
