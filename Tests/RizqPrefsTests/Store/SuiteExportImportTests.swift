import Foundation
import XCTest
@testable import RizqPrefs

/// SuiteStore.exportJSON / importJSON: the backup format, what `rizq-prefs export` and `import` use.
final class SuiteExportImportTests: XCTestCase {
    func testExportImportsBackIntoAnotherSuiteExactly() throws {
        let root = TemporaryRoot()
        let source = try root.store()
        source.set(Date(timeIntervalSince1970: 1e13), forKey: "far")
        source.set(Data([0, 1, 255]), forKey: "bytes")
        source.set("2026-11-23T07:00:00Z", forKey: "$date")
        source.set(["$date": "not a date", "n": 1.5] as [String: Any], forKey: "nested")
        let copy = try root.store("group.com.rizq.copy")
        let result = try copy.importJSON(try source.exportJSON())
        XCTAssertEqual(result, SuiteImportResult(keyCount: 4, repeatedKeys: []))
        XCTAssertEqual(copy.entries, source.entries)
        XCTAssertEqual(try copy.exportJSON(), try source.exportJSON())
    }

    func testOnlyKeyDollarDateIsAKeyAndNullRemovesAndReplacingReplaces() throws {
        let store = try TemporaryRoot().store()
        store.set(1, forKey: "old")
        try store.importJSON(Data(#"{"$date": "2026-11-23T07:00:00Z"}"#.utf8))
        XCTAssertEqual(store.prefValue(forKey: "$date"), "2026-11-23T07:00:00Z")
        let result = try store.importJSON(Data(#"{"old": null, "k": 1, "k": 2}"#.utf8))
        XCTAssertEqual(result.repeatedKeys, ["k"])
        XCTAssertNil(store.prefValue(forKey: "old"))
        XCTAssertEqual(store.prefValue(forKey: "k"), 2)
        try store.importJSON(Data(#"{"only": true}"#.utf8), replacing: true)
        XCTAssertEqual(store.keys, ["only"])
    }

    func testBadInputImportsNothingAndSaysWhy() throws {
        let store = try TemporaryRoot().store()
        store.set("kept", forKey: "k")
        XCTAssertThrowsError(try store.importJSON(Data("{\n\"a\": 1,\n}".utf8))) { error in
            XCTAssertEqual(error as? SuiteStoreError, .importNotJSON(reason: "expected a string key in double quotes", line: 3, column: 1))
        }
        XCTAssertThrowsError(try store.importJSON(Data("[1]".utf8))) { error in
            XCTAssertEqual("\(error)", "the JSON is an array, not an object; an import takes an object of keys and values, as an export writes")
        }
        XCTAssertEqual(store.entries, ["k": "kept"], "nothing changed")
    }

    func testASchemaVersionMemberIsAcceptedAtTheSuitesVersionOnly() throws {
        let store = try TemporaryRoot().store()
        store.set("kept", forKey: "k")
        XCTAssertThrowsError(try store.importJSON(Data(#"{"$schemaVersion": 3, "k": "new"}"#.utf8))) { error in
            XCTAssertEqual(error as? SuiteStoreError, .importOtherSchemaVersion(recorded: 3, suite: 0))
            XCTAssertTrue("\(error)".contains("nothing was imported"), "\(error)")
        }
        XCTAssertEqual(store.entries, ["k": "kept"], "nothing changed")
        let result = try store.importJSON(Data(#"{"$schemaVersion": 0, "k": "new"}"#.utf8))
        XCTAssertEqual(result.keyCount, 1, "the member is not a key")
        XCTAssertEqual(store.entries, ["k": "new"])
    }
}
