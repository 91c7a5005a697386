import Foundation
import RizqJSON
import XCTest
@testable import RizqPrefs

/// The Foundation-compatible surface, and where we deliberately do better than
/// Foundation's UserDefaults on Linux.
final class SuiteStoreTests: XCTestCase {
    func testMissingKeysGiveFoundationsDefaults() throws {
        let store = try TemporaryRoot().store()
        XCTAssertNil(store.object(forKey: "missing"))
        XCTAssertNil(store.string(forKey: "missing"))
        XCTAssertFalse(store.bool(forKey: "missing"))
        XCTAssertEqual(store.integer(forKey: "missing"), 0)
        XCTAssertEqual(store.double(forKey: "missing"), 0)
        XCTAssertEqual(store.float(forKey: "missing"), 0)
        XCTAssertNil(store.data(forKey: "missing"))
        XCTAssertNil(store.url(forKey: "missing"))
        XCTAssertNil(store.array(forKey: "missing"))
        XCTAssertNil(store.dictionary(forKey: "missing"))
        XCTAssertNil(store.stringArray(forKey: "missing"))
    }

    func testFoundationsLenientConversions() throws {
        let store = try TemporaryRoot().store()
        store.set("42", forKey: "text")
        store.set(3.9, forKey: "double")
        store.set(true, forKey: "flag")
        store.set(7, forKey: "int")
        XCTAssertEqual(store.integer(forKey: "text"), 42)
        XCTAssertEqual(store.integer(forKey: "double"), 3)
        XCTAssertEqual(store.integer(forKey: "flag"), 1)
        XCTAssertEqual(store.string(forKey: "int"), "7")
        XCTAssertTrue(store.bool(forKey: "int"))
        XCTAssertEqual(store.double(forKey: "int"), 7)
        // The strict, typed read does not convert.
        XCTAssertNil(store.value(forKey: "text", as: Int.self))
        XCTAssertNil(store.value(forKey: "flag", as: Int.self))
        XCTAssertEqual(store.value(forKey: "int", as: Double.self), 7)
        XCTAssertNil(store.value(forKey: "int", as: Int8.self).flatMap { $0 == 8 ? $0 : nil })
        store.set(300, forKey: "big")
        XCTAssertNil(store.value(forKey: "big", as: Int8.self), "does not fit: nil, not a wrapped value")
    }

    func testSettingNilRemovesAndRemoveObjectRemoves() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        store.set(2, forKey: "b")
        store.set(nil, forKey: "a")
        store.removeObject(forKey: "b")
        let none: Int? = nil
        store.set(3, forKey: "c")
        store.set(none, forKey: "c")
        try store.flush()
        XCTAssertEqual(store.keys, [])
        XCTAssertEqual(try root.fileObject().count, 0)
    }

    func testIntMaxIsNotZeroAndDatesKeepMillisecondsAndHTTPSURLsStayHTTPS() throws {
        // Three Foundation-on-Linux bugs, checked through a fresh process.
        let root = TemporaryRoot()
        let store = try root.store()
        let date = Date(timeIntervalSince1970: 1_700_000_000.987)
        store.set(Int.max, forKey: "max")
        store.set(date, forKey: "date")
        store.set(URL(string: "https://example.com/a?b=c"), forKey: "url")
        store.set(URL(fileURLWithPath: "/tmp/some file"), forKey: "file")
        try store.flush()
        let output = try Child.run(root, "group.com.rizq.test", ["read", "max:integer", "date:date", "url:url", "file:url"])
        XCTAssertEqual(output.lines, ["\(Int.max)", "\(date.timeIntervalSince1970)", "https://example.com/a?b=c", "file:///tmp/some%20file"])
    }

    func testRegisteredDefaultsAnswerMissingKeysAreNeverWrittenAndDoNotLeakIntoOtherSuites() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let other = try root.store("group.com.rizq.other")
        store.register(defaults: ["theme_mode": "system", "daily_goal": 3])
        XCTAssertEqual(store.string(forKey: "theme_mode"), "system")
        XCTAssertEqual(store.integer(forKey: "daily_goal"), 3)
        XCTAssertNil(other.object(forKey: "theme_mode"))
        store.set("dark", forKey: "theme_mode")
        store.set(1, forKey: "unrelated")
        try store.flush()
        XCTAssertEqual(store.string(forKey: "theme_mode"), "dark")
        XCTAssertEqual(store.dictionaryRepresentation()["daily_goal"] as? Int, 3)
        let object = try root.fileObject()
        XCTAssertNil(object["daily_goal"], "registered defaults are never written")
        store.removeObject(forKey: "theme_mode")
        XCTAssertEqual(store.string(forKey: "theme_mode"), "system")
    }

    func testTwoInstancesOfOneSuiteShareState() throws {
        let root = TemporaryRoot()
        let first = try root.store()
        let second = try root.store()
        first.set(5, forKey: "shared")
        XCTAssertEqual(second.integer(forKey: "shared"), 5)
    }

    func testKeysAreFreeText() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let keys = ["a.b.c", "@@auth0spajs@@::client", "with space", "ключ", "🕌", "sb-abc-auth-token", "", "slash/inside", "..", "nul\u{0}inside"]
        for (index, key) in keys.enumerated() { store.set(index, forKey: key) }
        try store.flush()
        let output = try Child.run(root, "group.com.rizq.test", ["dump"])
        guard case .dictionary(let entries) = try JSONReader.parse(output.stdout) else { return XCTFail(output.stdout) }
        for (index, key) in keys.enumerated() { XCTAssertEqual(entries[key], .int(index), key) }
        XCTAssertEqual(store.keys, keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    func testSuiteNamesAreValidatedWithAClearError() throws {
        let root = TemporaryRoot()
        // A combining mark after '/' or '.' makes one character of them: the check must see bytes.
        let bad = ["", "a/b", "../escape", "x..y", ".hidden", "nul\u{0}", "tab\tname", String(repeating: "x", count: 201),
                   "a/\u{0338}b", "..\u{0301}x", ".\u{0301}hidden", String(repeating: "é", count: 101)]
        for name in bad {
            XCTAssertThrowsError(try SuiteStore(suite: name, appID: "tests", root: root.path), name) { error in
                guard case SuiteStoreError.invalidSuiteName = error else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".contains("invalid suite name"), "\(error)")
            }
            XCTAssertNil(SuiteStore(suiteName: name))
        }
        XCTAssertThrowsError(try SuiteStore(suite: "ok", appID: "bad/\u{0338}app", root: root.path)) { error in
            guard case SuiteStoreError.invalidAppID = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try SuiteStore(suite: "ok", appID: "bad/app", root: root.path)) { error in
            guard case SuiteStoreError.invalidAppID = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), [], "nothing created for invalid names")
    }

    func testFilesAre0600AndFoldersAre0700InTheDocumentedPlaces() throws {
        let root = TemporaryRoot()
        let own = try root.store("com.rizq.app", app: "com.rizq.app")
        let group = try root.store("group.com.rizq.app", app: "com.rizq.app")
        let otherAppsView = try root.store("group.com.rizq.app", app: "com.rizq.widget")
        own.set(1, forKey: "a")
        group.set(2, forKey: "b")
        try own.flush()
        try group.flush()
        XCTAssertEqual(own.location.path, root.path + "/apps/com.rizq.app/com.rizq.app.json")
        XCTAssertEqual(group.location.path, root.path + "/groups/group.com.rizq.app.json")
        XCTAssertEqual(otherAppsView.location.path, group.location.path, "every app opens the same group file")
        XCTAssertEqual(otherAppsView.integer(forKey: "b"), 2)
        for (path, mode) in [(own.location.path, 0o600), (group.location.path, 0o600), (root.path + "/apps", 0o700),
                             (root.path + "/apps/com.rizq.app", 0o700), (root.path + "/groups", 0o700)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, mode, path)
        }
    }

    func testRootFollowsRizqPrefsHomeThenXDGConfigHome() {
        XCTAssertEqual(SuiteLocation.defaultRoot(environment: ["RIZQ_PREFS_HOME": "/r", "XDG_CONFIG_HOME": "/x", "HOME": "/h"]), "/r")
        XCTAssertEqual(SuiteLocation.defaultRoot(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]), "/x/rizq-prefs")
        XCTAssertEqual(SuiteLocation.defaultRoot(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]), "/h/.config/rizq-prefs")
        XCTAssertEqual(SuiteLocation.defaultRoot(environment: ["HOME": "/h"]), "/h/.config/rizq-prefs")
    }

    func testStandardSuiteUsesTheEnvironment() throws {
        let root = TemporaryRoot()
        setenv("RIZQ_PREFS_HOME", root.path, 1)
        setenv("RIZQ_PREFS_APP_ID", "com.rizq.standard-test", 1)
        defer {
            unsetenv("RIZQ_PREFS_HOME")
            unsetenv("RIZQ_PREFS_APP_ID")
        }
        let standard = SuiteStore.standard
        XCTAssertEqual(standard.location.path, root.path + "/apps/com.rizq.standard-test/com.rizq.standard-test.json")
        XCTAssertTrue(SuiteStore(suiteName: nil)?.location == standard.location)
        standard.set("yes", forKey: "k")
        XCTAssertTrue(standard.synchronize())
        XCTAssertNotNil(FileManager.default.contents(atPath: standard.location.path))
    }

    func testBatchAppliesAllOrNothing() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "kept")
        XCTAssertThrowsError(try store.batch { batch in
            try batch.set(2, forKey: "a")
            try batch.set(Date(timeIntervalSince1970: 1e15), forKey: "b")  // beyond the years a suite holds
        })
        XCTAssertNil(store.object(forKey: "a"), "a failed batch changes nothing")
        try store.batch { batch in
            try batch.set(2, forKey: "a")
            batch.removeObject(forKey: "kept")
            XCTAssertEqual(batch.value(forKey: "a"), .int(2))
            XCTAssertNil(batch.value(forKey: "kept"))
        }
        XCTAssertEqual(store.integer(forKey: "a"), 2)
        XCTAssertNil(store.object(forKey: "kept"))
        store.batch { batch in
            batch.removeAll()
            try? batch.set("only", forKey: "z")
        }
        try store.flush()
        XCTAssertEqual(try root.fileObject().keys.sorted(), ["z"])
    }

    func testFlushFailureKeepsTheChangeAndTheOldFile() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        let before = root.fileBytes()
        try root.obstructLocking()
        store.set(2, forKey: "a")
        XCTAssertThrowsError(try store.flush()) { error in
            guard case SuiteStoreError.writeFailed = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("previous file is intact"), "\(error)")
        }
        XCTAssertEqual(root.fileBytes(), before)
        XCTAssertEqual(store.integer(forKey: "a"), 2)
        try root.clearLockObstruction()
        try store.flush()
        XCTAssertEqual(try root.fileObject()["a"] as? Int, 2, "the pending change was kept and written on retry")
    }

    func testPersistentDomainAndRemovalOfAnotherSuite() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let other = try root.store("group.com.rizq.other")
        other.set(1, forKey: "x")
        XCTAssertEqual(store.persistentDomain(forName: "group.com.rizq.other")?["x"] as? Int, 1)
        store.removePersistentDomain(forName: "group.com.rizq.other")
        XCTAssertNil(other.object(forKey: "x"))
    }
}
