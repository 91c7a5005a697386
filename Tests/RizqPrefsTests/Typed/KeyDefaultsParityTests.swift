import Foundation
import XCTest
@testable import RizqPrefs

/// An enum with no declaration at all, as `@AppStorage` takes it.
private enum Plain: String, Sendable { case light, dark }
/// An Int-backed one.
private enum Level: Int, Sendable { case low = 1, high = 3 }

/// What sindresorhus/Defaults does with its keys, done by ours: defaults registered for untyped
/// readers, a stream that starts with the current value, `Hashable` keys, `isDefaultValue`,
/// resetting several keys at once, and `UUID`, `Set`, ranges and collections as plain keys.
final class KeyDefaultsParityTests: XCTestCase {
    private var root: TemporaryRoot!
    private var store: SuiteStore!

    override func setUpWithError() throws {
        root = TemporaryRoot()
        store = try root.store()
    }

    override func tearDown() {
        store = nil
        root = nil
    }

    func testAKeyRegistersItsDefaultForTheSuitesUntypedReaders() throws {
        let streak = Key("current_streak", default: 7, store: store)
        let theme = Key("theme_mode", default: Plain.dark, store: store)
        let goals = Key(codable: "goals", default: ["a": 1], store: store)
        let optional = Key("last_sync", default: Date?.none, store: store)
        XCTAssertEqual(store.integer(forKey: "current_streak"), 7)
        XCTAssertEqual(store.string(forKey: "theme_mode"), "dark")
        XCTAssertEqual(store.dictionary(forKey: "goals") as? [String: Int], ["a": 1])
        XCTAssertNil(store.object(forKey: "last_sync"), "a nil default registers nothing")
        XCTAssertEqual(store.dictionaryRepresentation()["current_streak"] as? Int, 7)
        XCTAssertEqual(store.keys, [], "registered, never stored")
        try store.flush()
        XCTAssertNil(root.fileBytes(), "nothing was written")
        // The typed reads are unchanged by it.
        XCTAssertEqual(streak.value, 7)
        streak.value = 9
        XCTAssertEqual(store.integer(forKey: "current_streak"), 9)
        streak.reset()
        XCTAssertEqual(store.integer(forKey: "current_streak"), 7)
        XCTAssertEqual(theme.value, .dark)
        XCTAssertEqual(goals.value, ["a": 1])
        XCTAssertNil(optional.value)
        // Another suite does not see them.
        XCTAssertNil(try root.store("group.com.rizq.other").object(forKey: "current_streak"))
    }

    func testChangesWithInitialYieldTheCurrentValueFirst() async throws {
        let streak = Key("current_streak", default: 0, store: store)
        streak.value = 3
        var iterator = streak.changes(initial: true).makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first, 3, "the current value, before any change")
        streak.value = 4
        let second = await iterator.next()
        XCTAssertEqual(second, 4)

        // The property wrapper's projected value is such a key.
        let settings = WrapperSettings(store: store)
        var wrapped = settings.$level.changes(initial: true).makeAsyncIterator()
        let initial = await wrapped.next()
        XCTAssertEqual(initial, .low, "the default, when nothing is stored")
        settings.level = .high
        let changed = await wrapped.next()
        XCTAssertEqual(changed, .high)
    }

    func testKeysAreHashableAndSendable() throws {
        let one = Key("current_streak", default: 0, store: store)
        let same = Key("current_streak", default: 5, store: try root.store())
        let otherSuite = Key("current_streak", default: 0, store: try root.store("group.com.rizq.other"))
        let otherName = Key("total_xp", default: 0, store: store)
        XCTAssertEqual(one, same, "the same key of the same suite file")
        XCTAssertNotEqual(one, otherSuite)
        XCTAssertNotEqual(one, otherName)
        XCTAssertEqual(Set([one, same, otherSuite, otherName]).count, 3)
        let sendable: any Sendable & Hashable = one
        XCTAssertNotNil(sendable)
    }

    func testIsDefaultValue() {
        let goal = Key("daily_goal", default: 3, store: store)
        XCTAssertTrue(goal.isDefaultValue)
        goal.value = 4
        XCTAssertFalse(goal.isDefaultValue)
        goal.value = 3
        XCTAssertTrue(goal.isDefaultValue, "the default stored is the default")
        XCTAssertEqual(store.keys, ["daily_goal"])
    }

    func testResetSeveralKeysAtOnce() throws {
        let streak = Key("current_streak", default: 0, store: store)
        let theme = Key("theme_mode", default: Plain.light, store: store)
        let ids = Key("ids", default: Set<Int>(), store: store)
        streak.value = 5
        theme.value = .dark
        ids.value = [1]
        store.set("kept", forKey: "other")
        // The one-key writes above are posted from the post queue: let those posts go first.
        DidChangeRelay.postQueue.sync {}
        let notifications = NotificationCounter(object: store)
        store.reset(streak, theme, ids)
        XCTAssertEqual(notifications.count, 1, "one change")
        XCTAssertEqual(streak.value, 0)
        XCTAssertEqual(theme.value, .light)
        XCTAssertEqual(ids.value, [])
        XCTAssertEqual(store.keys, ["other"])
    }

    func testUUIDSetRangesAndCollectionsArePlainKeys() throws {
        let id = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        Key("device_id", default: UUID(), store: store).value = id
        Key("tags", default: Set<String>(), store: store).value = ["b", "c", "a"]
        Key("hours", default: 0...0, store: store).value = 8...17
        Key("ratio", default: 0.0..<1.0, store: store).value = 0.25..<0.75
        Key("ids", default: [UUID](), store: store).value = [id]
        Key("by_day", default: [String: Set<Int>](), store: store).value = ["mon": [2, 1]]
        try store.flush()

        let file = try root.fileObject()
        XCTAssertEqual(file["device_id"] as? String, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        XCTAssertEqual(file["tags"] as? [String], ["a", "b", "c"], "a set is a sorted array")
        XCTAssertEqual(file["hours"] as? [Int], [8, 17])
        XCTAssertEqual(file["ratio"] as? [Double], [0.25, 0.75])
        XCTAssertEqual(file["ids"] as? [String], ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"])
        XCTAssertEqual(file["by_day"] as? [String: [Int]], ["mon": [1, 2]])

        // Read back in a fresh process's way: a new store over the same file.
        let again = try SuiteStore(suite: "group.com.rizq.test", appID: "tests2", root: root.path)
        XCTAssertEqual(Key("device_id", default: UUID(), store: again).value, id)
        XCTAssertEqual(Key("tags", default: Set<String>(), store: again).value, ["a", "b", "c"])
        XCTAssertEqual(Key("hours", default: 0...0, store: again).value, 8...17)
        XCTAssertEqual(Key("ratio", default: 0.0..<1.0, store: again).value, 0.25..<0.75)
        XCTAssertEqual(Key("ids", default: [UUID](), store: again).value, [id])
        XCTAssertEqual(Key("by_day", default: [String: Set<Int>](), store: again).value, ["mon": [1, 2]])
        // A lowercase UUID written by hand reads too; a range upside down does not.
        store.set("e621e1f8-c36c-495a-93fc-0c247a3e6e5f", forKey: "device_id")
        XCTAssertEqual(Key("device_id", default: UUID(), store: store).value, id)
        store.set([5, 1], forKey: "hours")
        XCTAssertEqual(Key("hours", default: 0...0, store: store).value, 0...0)
    }

    func testEnumsNeedNoDeclaration() throws {
        let theme = Key("theme_mode", default: Plain.light, store: store)
        let level = Key("level", default: Level.low, store: store)
        let maybe = Key("maybe", default: Plain?.none, store: store)
        theme.value = .dark
        level.value = .high
        maybe.value = .dark
        try store.flush()
        XCTAssertEqual(try root.fileObject() as NSDictionary, ["theme_mode": "dark", "level": 3, "maybe": "dark"])
        maybe.value = nil
        XCTAssertNil(store.object(forKey: "maybe"), "nil removes")
        store.set("purple", forKey: "theme_mode")
        XCTAssertEqual(theme.value, .light, "an unknown raw value reads as the default")
        XCTAssertEqual(store.string(forKey: "theme_mode"), "purple", "and stays stored")

        let settings = WrapperSettings(store: store)
        settings.plain = .dark
        settings.optionalPlain = .light
        XCTAssertEqual(store.string(forKey: "plain"), "dark")
        XCTAssertEqual(store.string(forKey: "optional_plain"), "light")
        settings.optionalPlain = nil
        XCTAssertNil(store.object(forKey: "optional_plain"))
    }

    func testTheOneLineKeyEnumFormChoosesTheSameStorage() throws {
        let settings = DotKeySettings(store: store)
        settings.streak = 4
        settings.theme = .dark
        settings.maybeTheme = .light
        settings.lastSync = Date(timeIntervalSince1970: 1)
        settings.preferences = ["goal": 5]
        settings.ids = [2, 1]
        try store.flush()
        let file = try root.fileObject()
        XCTAssertEqual(file["streak"] as? Int, 4)
        XCTAssertEqual(file["theme"] as? String, "dark")
        XCTAssertEqual(file["maybe_theme"] as? String, "light")
        XCTAssertEqual(file["preferences"] as? [String: Int], ["goal": 5])
        XCTAssertEqual(file["ids"] as? [Int], [1, 2])
        let again = DotKeySettings(store: store)
        XCTAssertEqual(again.streak, 4)
        XCTAssertEqual(again.theme, .dark)
        XCTAssertEqual(again.maybeTheme, .light)
        XCTAssertEqual(again.lastSync, Date(timeIntervalSince1970: 1))
        XCTAssertEqual(again.preferences, ["goal": 5])
        again.maybeTheme = nil
        XCTAssertNil(store.object(forKey: "maybe_theme"))
        // A type a suite cannot hold is refused when the property is made: it reads as its default.
        again.unstorable = NotStorable(mark: 2)
        XCTAssertEqual(again.unstorable, NotStorable(mark: 1))
        XCTAssertNil(store.object(forKey: "unstorable"))
    }
}

private struct NotStorable: Sendable, Equatable { var mark: Int }

private final class WrapperSettings {
    @UserDefault var level: Level
    @UserDefault var plain: Plain
    @UserDefault var optionalPlain: Plain?

    init(store: SuiteStore) {
        _level = UserDefault("level", defaultValue: Level.low, store: store)
        _plain = UserDefault("plain", defaultValue: Plain.light, store: store)
        _optionalPlain = UserDefault("optional_plain", defaultValue: nil, store: store)
    }
}

private enum DotKey: String {
    case streak, theme, maybeTheme = "maybe_theme", lastSync = "last_sync", preferences, ids, unstorable
}

// The one line an app adds for its key enum (README, "Porting from iOS").
extension PreferenceWrapper { fileprivate init(_ key: DotKey, defaultValue: Value, store: SuiteStore = .standard) { self.init(name: key.rawValue, defaultValue: defaultValue, store: store) } }

private final class DotKeySettings {
    @UserDefault var streak: Int
    @UserDefault var theme: Plain
    @UserDefault var maybeTheme: Plain?
    @UserDefault var lastSync: Date?
    @CodableUserDefault var preferences: [String: Int]
    @UserDefault var ids: Set<Int>
    @UserDefault var unstorable: NotStorable

    init(store: SuiteStore) {
        _streak = UserDefault(.streak, defaultValue: 0, store: store)
        _theme = UserDefault(.theme, defaultValue: Plain.light, store: store)
        _maybeTheme = UserDefault(.maybeTheme, defaultValue: nil, store: store)
        _lastSync = UserDefault(.lastSync, defaultValue: nil, store: store)
        _preferences = CodableUserDefault(.preferences, defaultValue: [:], store: store)
        _ids = UserDefault(.ids, defaultValue: [], store: store)
        _unstorable = UserDefault(.unstorable, defaultValue: NotStorable(mark: 1), store: store)
    }
}
