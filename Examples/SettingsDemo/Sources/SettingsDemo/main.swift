import Foundation
import RizqPrefs

SuiteStore.configure(appID: "com.rizq.app")
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
