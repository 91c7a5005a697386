import Foundation
import XCTest
@testable import RizqPrefs

/// An administrator's managed layer: forced values every reader gets, that no write changes.
final class ManagedLayerTests: LayerTestCase {
    func testAForcedValueIsWhatEveryReadReturnsAndSaysWhereItComesFrom() throws {
        let lock = try layers.write("managed", app: app, suite: app, #"{"update_channel": "stable", "telemetry": false}"#)
        let writer = try standard()
        writer.set("beta", forKey: "update_channel")
        try writer.flush()
        XCTAssertEqual(writer.string(forKey: "update_channel"), "stable")
        XCTAssertEqual(writer.bool(forKey: "telemetry"), false)
        XCTAssertTrue(writer.objectIsForced(forKey: "update_channel"))
        XCTAssertTrue(writer.objectIsForced(forKey: "update_channel", inDomain: app))
        XCTAssertFalse(writer.objectIsForced(forKey: "theme"))
        XCTAssertEqual(writer.source(forKey: "update_channel"), ValueSource(layer: .managed, path: lock))
        // The user's own value is on disk all the same, untouched by the lock.
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: standardPath))) as? [String: Any])
        XCTAssertEqual(file["update_channel"] as? String, "beta")
        XCTAssertNil(file["telemetry"], "policy is never written into the user's file")
        XCTAssertEqual(writer.entries["update_channel"], .string("beta"), "entries are the user's layer")
        XCTAssertEqual(writer.dictionaryRepresentation()["update_channel"] as? String, "stable", "dictionaryRepresentation is what reads return")
        XCTAssertEqual(writer.dictionaryRepresentation()["telemetry"] as? Bool, false)
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: writer.exportJSON()) as? [String: Any])
        XCTAssertEqual(exported["update_channel"] as? String, "beta", "export carries the user's layer only")
        XCTAssertNil(exported["telemetry"])
    }

    func testThrowingWritesToAForcedKeyThrowNamingTheFileAndWriteNothing() throws {
        let lock = try layers.write("managed", app: app, suite: app, #"{"update_channel": "stable"}"#)
        let store = try standard()
        store.set(3, forKey: "other")
        try store.flush()
        let before = try Data(contentsOf: URL(fileURLWithPath: standardPath))

        XCTAssertThrowsError(try store.put("beta", forKey: "update_channel")) { error in
            XCTAssertEqual(error as? SuiteStoreError, .forced(key: "update_channel", path: lock))
            XCTAssertTrue("\(error)".contains(lock), "\(error)")
        }
        XCTAssertThrowsError(try store.put(any: "beta", forKey: "update_channel"))
        XCTAssertThrowsError(try store.batch { batch in
            try batch.set(1, forKey: "other")
            try batch.set("beta", forKey: "update_channel")
        })
        XCTAssertThrowsError(try store.commit { batch in try batch.set("beta", forKey: "update_channel") })
        XCTAssertThrowsError(try store.importJSON(Data(#"{"update_channel": "beta", "other": 9}"#.utf8))) { error in
            XCTAssertEqual(error as? SuiteStoreError, .forced(key: "update_channel", path: lock))
        }
        XCTAssertThrowsError(try store.importJSON(Data(#"{"update_channel": null}"#.utf8)), "a removal through an import is a write too")
        let key = Key("update_channel", default: "stable", store: store)
        XCTAssertThrowsError(try key.put("beta")) { error in
            XCTAssertEqual(error as? SuiteStoreError, .forced(key: "update_channel", path: lock))
        }
        XCTAssertTrue(key.isForced)
        try store.flush()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: standardPath)), before, "nothing was written")
        XCTAssertEqual(store.integer(forKey: "other"), 3)
    }

    func testTheUsersOwnValueComesBackWhenTheLockGoes() async throws {
        let lock = try layers.write("managed", app: app, suite: app, #"{"volume": 20}"#)
        let store = try standard()
        // Foundation's non-throwing write goes to the user's layer under the lock.
        store.set(80, forKey: "volume")
        try store.flush()
        XCTAssertEqual(store.integer(forKey: "volume"), 20)
        let changes = Recorder(store.changes(forKey: "volume"))
        try layers.remove(lock)
        let seen = await changes.wait(for: 1, in: self)
        XCTAssertEqual(seen.first, .some(.int(80)), "the change stream reports the value readers now see")
        XCTAssertEqual(store.integer(forKey: "volume"), 80)
        XCTAssertFalse(store.objectIsForced(forKey: "volume"))
        XCTAssertEqual(store.source(forKey: "volume")?.layer, .user)
    }

    func testALockAppearingAndChangingReachesTheChangeStreamsOfARunningProcess() async throws {
        let store = try standard()
        store.set("dark", forKey: "theme")
        try store.flush()
        let changes = Recorder(store.changes(forKey: "theme"))
        let all = Recorder(store.changes())
        // Neither the folder of the app nor `rizq-prefs` exists yet: watched from the base down.
        let lock = try layers.write("managed", app: app, suite: app, #"{"theme": "light"}"#)
        var seen = await changes.wait(for: 1, in: self)
        XCTAssertEqual(seen, [.string("light")])
        XCTAssertEqual(store.string(forKey: "theme"), "light")
        let every = await all.wait(for: 1, in: self)
        XCTAssertEqual(every.first, SuiteChange(key: "theme", newValue: .string("light"), origin: .external))

        try layers.place(Data(#"{"theme": "system"}"#.utf8), at: lock)
        seen = await changes.wait(for: 2, in: self)
        XCTAssertEqual(seen.last, .string("system"))

        // A write hidden by the lock changes nothing a reader sees: no change is reported.
        store.set("blue", forKey: "theme")
        try layers.remove(lock)
        seen = await changes.wait(for: 3, in: self)
        XCTAssertEqual(seen.last, .string("blue"), "the next change is the lock going, showing the user's latest value")
        XCTAssertEqual(seen.count, 3)
    }

    func testATypedKeyAndItsPropertyWrapperSayTheKeyIsForced() throws {
        try layers.write("managed", app: app, suite: app, #"{"current_streak": 7}"#)
        let store = try standard()
        final class Settings: @unchecked Sendable {
            @UserDefault var streak: Int
            @AppStorage var level: Int
            init(store: SuiteStore) {
                _streak = UserDefault("current_streak", defaultValue: 0, store: store)
                _level = AppStorage(wrappedValue: 1, "level", store: store)
            }
        }
        let settings = Settings(store: store)
        XCTAssertEqual(settings.streak, 7)
        XCTAssertTrue(settings.$streak.isForced)
        XCTAssertFalse(settings.$level.isForced)
        settings.streak = 9  // Foundation's way: kept under the lock
        XCTAssertEqual(settings.streak, 7)
        XCTAssertEqual(store.entries["current_streak"], .int(9))
        XCTAssertEqual(settings.$streak.source?.layer, .managed)
    }

    func testAppGroupSuitesHaveLayersOfTheirOwnUnderGroups() throws {
        let lock = try layers.write("managed", app: app, suite: "group.com.rizq.shared", #"{"sync": true}"#)
        XCTAssertTrue(lock.hasSuffix("/rizq-prefs/managed/groups/group.com.rizq.shared.json"), lock)
        let shared = try SuiteStore(suite: "group.com.rizq.shared", appID: app, root: root.path)
        XCTAssertEqual(shared.bool(forKey: "sync"), true)
        XCTAssertTrue(shared.objectIsForced(forKey: "sync"))
        XCTAssertFalse(try standard().objectIsForced(forKey: "sync"), "another suite has no such lock")
    }

    func testDeviceSyncsObserverSeesTheUsersLayerOnly() async throws {
        try layers.write("managed", app: app, suite: app, #"{"theme": "light"}"#)
        let store = try standard()
        let user = Recorder(store.userLayerChanges())
        let everyone = Recorder(store.changes())
        store.set("dark", forKey: "theme")
        store.set("blue", forKey: "accent")
        let seen = await user.wait(for: 2, in: self)
        XCTAssertEqual(seen.map(\.newValue), [.string("dark"), .string("blue")], "the user's layer changed; the lock is not the user's")
        XCTAssertEqual(store.string(forKey: "theme"), "light")
        let read = await everyone.wait(for: 1, in: self)
        XCTAssertEqual(read.map(\.key), ["accent"], "what readers see: the theme did not change for them")
    }
}
