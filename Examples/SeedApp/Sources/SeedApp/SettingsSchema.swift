import Foundation
import RizqPrefs

/// The settings' schema: how a suite file written by an older version of the app becomes the
/// shape this version's keys read. Not a Linux edit — the seed has nothing like it — but what
/// the app needs once its preferences change shape between releases (README, "Schema
/// migrations"). `main.swift` opens the standard suite with it before anything reads a setting.
///
/// | version | the file | the stage that brings it here |
/// | --- | --- | --- |
/// | 0 | written before the app recorded a version: `lastUsedProvider`, `daily_goal` as text (`"05"`), `user_preferences` without `preferredTimeSlots`, `auth_token` in the file | — |
/// | 1 | `last_used_provider`; `daily_goal` a number | lightweight: a rename and a conversion |
/// | 2 | `user_preferences` with `preferredTimeSlots` and the daily goal inside it | custom: the struct gained a field |
/// | 3 | the auth token in the Secret Service, not in the file | lightweight: a move into the keyring |
enum SettingsSchema {
    /// The version this app's code reads and writes.
    static let version = 3

    /// The schema, with `keyring` as the place the auth token moves to (the app passes a
    /// `SecretServiceStore`; tests an `InMemorySecretStore`).
    static func current(keyring: some SecretStore) throws -> SuiteMigrations {
        try SuiteMigrations(version: version, stages: [
            .lightweight(from: 0, to: 1, [
                .rename("lastUsedProvider", to: UserDefaultsKey.lastUsedProvider.rawValue),
                // A value that is no number is dropped: the app then shows its default goal.
                .convert("daily_goal", from: String.self, to: Int.self, ifUnconvertible: .removeKey) {
                    Int($0.trimmingCharacters(in: .whitespaces))
                },
            ]),
            .custom(from: 1, to: 2) { batch in
                // UserPreferences gained preferredTimeSlots: a stored struct without it would not
                // decode, so it is read in its old shape and written in the new one, with the
                // top-level daily goal folded in.
                let key = UserDefaultsKey.userPreferences.rawValue
                let old = try batch.decode(PreferencesVersion1.self, forKey: key)
                let goal = batch.value(forKey: "daily_goal", as: Int.self)
                guard old != nil || goal != nil else { return }
                var new = UserPreferences()
                if let old {
                    new.notificationsEnabled = old.notificationsEnabled
                    new.hapticsEnabled = old.hapticsEnabled
                    new.dailyGoal = old.dailyGoal
                    new.preferredTimeSlots = old.preferredTimeSlots ?? new.preferredTimeSlots
                }
                if let goal { new.dailyGoal = goal }
                try batch.encode(new, forKey: key)
                batch.removeObject(forKey: "daily_goal")
            },
            .lightweight(from: 2, to: 3, [
                .moveToSecretStore("auth_token", keyring, label: "Rizq auth token"),
            ]),
        ])
    }

    /// `UserPreferences` as versions 0 and 1 stored it (`preferredTimeSlots` read when a newer
    /// app already wrote it).
    private struct PreferencesVersion1: Decodable {
        var notificationsEnabled: Bool
        var hapticsEnabled: Bool
        var dailyGoal: Int
        var preferredTimeSlots: [TimeSlot]?
    }
}
