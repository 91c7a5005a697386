import Foundation
import Synchronization
import XCTest
@testable import RizqPrefs

private enum WrapperTheme: String, UserDefaultValue { case light, dark, system }

private enum SettingsKey: String {
    case streak = "current_streak"
    case theme = "theme_mode"
}

private struct Preferences: Codable, Equatable, Sendable {
    var notificationsEnabled = true
    var dailyGoal = 3
    var preferredTimeSlots: [String] = ["fajr"]
}

/// What changed shape between two versions of an app.
private struct PreferencesV2: Codable, Equatable, Sendable {
    var dailyGoal: String
}

final class PropertyWrapperTests: XCTestCase {
    func testEveryValueTypeRoundTripsThroughFreshProcesses() throws {
        let root = TemporaryRoot()
        let empty = try Child.run(root, "group.com.rizq.test", ["typed-read"])
        XCTAssertEqual(empty.lines, ["false"] + Array(repeating: "0", count: 12) + [
            "", "", "0.0", "file:///", "[]", "[]", "[:]", "nil", "system", "nil", "nil",
        ])
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["typed-write"]).status, 0)
        let read = try Child.run(root, "group.com.rizq.test", ["typed-read"])
        XCTAssertEqual(read.lines, [
            "true", "\(Int.max)", "\(Int8.min)", "\(Int16.min)", "\(Int32.max)", "\(Int64.min)", "\(UInt.max)", "\(UInt8.max)",
            "\(UInt16.max)", "\(UInt32.max)", "\(UInt64.max)", "\((0.1).bitPattern)", "\(Float(1.5).bitPattern)", "ключ 🕌 \"q\"",
            "AP8A", "1763819220.123456", "https://rizq.app/a?b=1", #"["a", "b"]"#, "[1, -2, 3]", #"["ratio": 0.5]"#, "86400.0",
            "dark", "light", "true",
        ])
        // Optional nil removes the key, and the next process reads the default again.
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["typed-clear-optionals"]).status, 0)
        let object = try root.fileObject()
        XCTAssertNil(object["optional"])
        XCTAssertNil(object["optional_theme"])
        XCTAssertNil(object["profile"])
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["typed-read"]).lines.suffix(4), ["nil", "dark", "nil", "nil"])
    }

    func testDefaultsWhenMissingAndKeyEnumsAndOptionals() throws {
        let store = try TemporaryRoot().store()
        @UserDefault(SettingsKey.streak, defaultValue: 0, store: store) var streak: Int
        @UserDefault(SettingsKey.theme, defaultValue: WrapperTheme.system, store: store) var theme
        @UserDefault("last_used_provider", defaultValue: nil, store: store) var provider: String?
        XCTAssertEqual(streak, 0)
        XCTAssertEqual(theme, .system)
        XCTAssertNil(provider)
        streak += 5
        theme = .dark
        provider = "google"
        XCTAssertEqual(store.integer(forKey: "current_streak"), 5)
        XCTAssertEqual(store.string(forKey: "theme_mode"), "dark")
        XCTAssertEqual(store.string(forKey: "last_used_provider"), "google")
        provider = nil
        XCTAssertNil(store.object(forKey: "last_used_provider"))
        XCTAssertEqual($streak.name, "current_streak")
        $streak.reset()
        XCTAssertFalse(store.keys.contains("current_streak"), "removed")
        XCTAssertEqual(store.object(forKey: "current_streak") as? Int, 0, "the key's registered default, as with Defaults")
        XCTAssertEqual(streak, 0)
    }

    func testCodableValueIsStoredAsANestedJSONObjectWithItsFields() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        @CodableUserDefault("user_preferences", defaultValue: Preferences(), store: store) var preferences
        preferences = Preferences(notificationsEnabled: false, dailyGoal: 7, preferredTimeSlots: ["fajr", "maghrib"])
        try store.flush()
        let stored = try XCTUnwrap(try root.fileObject()["user_preferences"] as? [String: Any])
        XCTAssertEqual(stored["notificationsEnabled"] as? Bool, false)
        XCTAssertEqual(stored["dailyGoal"] as? Int, 7)
        XCTAssertEqual(stored["preferredTimeSlots"] as? [String], ["fajr", "maghrib"])
        let text = String(decoding: try XCTUnwrap(root.fileBytes()), as: UTF8.self)
        XCTAssertTrue(text.contains("\"dailyGoal\": 7"), text)
        // A hand edit of the file is read back.
        try Data(text.replacingOccurrences(of: "\"dailyGoal\": 7", with: "\"dailyGoal\": 9").utf8).write(to: URL(fileURLWithPath: root.filePath()))
        store.synchronize()
        XCTAssertEqual(preferences.dailyGoal, 9)
    }

    func testWrongStoredTypeReadsAsDefaultAndLeavesTheBytesOnDisk() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("seven", forKey: "current_streak")
        store.set(["dailyGoal": 3, "notificationsEnabled": true, "preferredTimeSlots": ["isha"]] as [String: Any], forKey: "user_preferences")
        store.set("purple", forKey: "theme_mode")
        try store.flush()
        let before = try XCTUnwrap(root.fileBytes())
        @UserDefault("current_streak", defaultValue: 1, store: store) var streak: Int
        @UserDefault("theme_mode", defaultValue: WrapperTheme.system, store: store) var theme
        @CodableUserDefault("user_preferences", defaultValue: PreferencesV2(dailyGoal: "default"), store: store) var newShape
        XCTAssertEqual(streak, 1)
        XCTAssertEqual(theme, .system)
        XCTAssertEqual(newShape, PreferencesV2(dailyGoal: "default"))
        XCTAssertEqual(streak, 1)
        try store.flush()
        XCTAssertEqual(root.fileBytes(), before, "the stored values are left alone")
        // The old shape still reads.
        @CodableUserDefault("user_preferences", defaultValue: Preferences(), store: store) var oldShape
        XCTAssertEqual(oldShape.preferredTimeSlots, ["isha"])
    }

    func testAWrongTypeIsLoggedOncePerKey() throws {
        let root = TemporaryRoot()
        for (key, json) in [("int", "\"seven\""), ("theme", "\"purple\""), ("profile", "[1, 2]")] {
            XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["set-json", key, json]).status, 0)
        }
        let output = try Child.run(root, "group.com.rizq.test", ["typed-read", "3"])
        XCTAssertEqual(output.status, 0)
        for key in ["int", "theme", "profile"] {
            let warnings = output.stderr.components(separatedBy: "key '\(key)' does not read as the expected type").count - 1
            XCTAssertEqual(warnings, 1, "key \(key): \(output.stderr)")
        }
        XCTAssertEqual(output.lines.count, 3 * 24)
        XCTAssertEqual(try root.fileObject()["theme"] as? String, "purple")
    }

    func testTypedKeysWithSubscript() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let other = try root.store("group.com.rizq.other")
        let streak = Key("current_streak", default: 0, store: store)
        let prefs = Key(codable: "prefs", default: Preferences(), store: store)
        XCTAssertEqual(store[streak], 0)
        store[streak] += 2
        XCTAssertEqual(streak.value, 2)
        other[streak] = 9  // the subscript uses the store it is called on
        XCTAssertEqual(other.integer(forKey: "current_streak"), 9)
        XCTAssertEqual(store[streak], 2)
        store[prefs].dailyGoal = 4
        XCTAssertEqual(prefs.value.dailyGoal, 4)
        streak.reset()
        XCTAssertEqual(store[streak], 0)
    }

    /// NaN and infinities are stored, as Foundation stores them (issue 29); a date a suite
    /// cannot hold is refused and the stored value stays.
    func testNonFiniteWrapperValuesAreStoredAndUnstorableDatesRefused() throws {
        let store = try TemporaryRoot().store()
        @UserDefault("ratio", defaultValue: 1.0, store: store) var ratio: Double
        ratio = .nan
        XCTAssertTrue(ratio.isNaN)
        ratio = -.infinity
        XCTAssertEqual(ratio, -.infinity)
        @UserDefault("when", defaultValue: Date(timeIntervalSince1970: 0), store: store) var when: Date
        when = Date(timeIntervalSince1970: 5)
        when = Date(timeIntervalSince1970: 1e15)
        XCTAssertEqual(when, Date(timeIntervalSince1970: 5))
    }
}
