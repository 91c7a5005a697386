// A child process for the property-list import tests: it stores settings with Foundation's own
// `UserDefaults` (swift-corelibs-foundation), the way an app being ported wrote them, so that the
// test imports a plist written by the real thing rather than one made to look like it.
//
//   foundation-defaults-test-child SUITE   (a token on stdin, never in the arguments)
//
// Foundation writes `$XDG_CONFIG_HOME/SUITE.plist` (XML); the child prints "synchronized" once
// `synchronize()` has returned true, and exits 1 with a message otherwise.
import Foundation

/// The seed app's Codable preferences, as its `CodableUserDefault` stored them: JSON in `Data`.
struct UserPreferences: Codable {
    var notificationsEnabled = true
    var hapticsEnabled = false
    var dailyGoal = 5
    var preferredTimeSlots = ["morning", "night"]
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let defaults = UserDefaults(suiteName: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: foundation-defaults-test-child SUITE (token on stdin)\n".utf8))
    exit(2)
}
let token = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines)

defaults.set(true, forKey: "has_completed_onboarding")
defaults.set(false, forKey: "haptics_enabled")
defaults.set(12, forKey: "current_streak")
defaults.set(Int64.max, forKey: "total_xp")
defaults.set(0.75, forKey: "volume")
defaults.set(1.0, forKey: "zoom")
defaults.set("dark", forKey: "theme_mode")
defaults.set("42", forKey: "last_used_provider")
defaults.set(Date(timeIntervalSince1970: 1_732_283_220.75), forKey: "last_sync_timestamp")
defaults.set([3, 14, 15], forKey: "cached_journey_ids")
defaults.set(Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]), forKey: "avatar")
defaults.set(["x": 10, "size": ["w": 800.5, "h": 600] as [String: Any], "tags": ["a", "ب"]] as [String: Any], forKey: "window")
do {
    defaults.set(try JSONEncoder().encode(UserPreferences()), forKey: "user_preferences")
} catch {
    FileHandle.standardError.write(Data("cannot encode: \(error)\n".utf8))
    exit(1)
}
if !token.isEmpty { defaults.set(token, forKey: "auth_token") }

guard defaults.synchronize() else {
    FileHandle.standardError.write(Data("synchronize() returned false\n".utf8))
    exit(1)
}
print("synchronized")
