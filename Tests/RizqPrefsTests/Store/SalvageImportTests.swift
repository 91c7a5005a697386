import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 1: a file quarantined because a member nests deeper than the reader takes
/// (written by hand, or by an earlier release that wrote any depth) is restored by a salvaging
/// import, which takes every other key and names the ones it skipped.
final class SalvageImportTests: XCTestCase {
    /// A file quarantined for its depth (written by hand, or by an earlier release) is restored
    /// by a salvaging import: every other key comes in, and the too-deep ones are named.
    func testASalvagingImportTakesEveryOtherKeyAndNamesTheSkippedOnes() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let text = "{\"a\": 1, \"deep\": \(deep), \"b\": {\"$date\": \"2026-01-01T00:00:00Z\"}, \"also deep\": [\(deep)], \"c\": \"x\"}"
        let store = try TemporaryRoot().store()
        XCTAssertThrowsError(try store.importJSON(Data(text.utf8)), "a plain import is all or nothing")
        let result = try store.importJSON(Data(text.utf8), salvaging: true)
        XCTAssertEqual(result.skippedKeys, ["deep", "also deep"])
        XCTAssertEqual(result.keyCount, 3)
        XCTAssertEqual(store.prefValue(forKey: "a"), 1)
        XCTAssertEqual(store.prefValue(forKey: "c"), "x")
        XCTAssertEqual(store.prefValue(forKey: "b"), .date(Date(timeIntervalSince1970: 1_767_225_600)))
        XCTAssertNil(store.prefValue(forKey: "deep"))
    }

    /// The salvage still refuses what is not JSON: skipping a member checks its brackets and strings.
    func testASalvageRefusesBrokenJSONInsideASkippedMember() throws {
        let store = try TemporaryRoot().store()
        for text in [
            "{\"a\": 1, \"deep\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 599) + "}",
            "{\"a\": 1, \"deep\": " + String(repeating: "[", count: 600) + "\"]" + String(repeating: "]", count: 600) + "}",
            "{\"a\": 1, \"deep\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 599) + "}}",
        ] {
            XCTAssertThrowsError(try store.importJSON(Data(text.utf8), salvaging: true))
        }
        XCTAssertEqual(store.keys, [])
    }
}
