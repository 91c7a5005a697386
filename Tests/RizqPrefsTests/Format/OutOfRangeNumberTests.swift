import Foundation
import XCTest
@testable import RizqPrefs

/// One number beyond a Double's range no longer quarantines a whole file.
final class OutOfRangeNumberTests: XCTestCase {
    func testANumberBeyondADoublesRangeReadsAsItsTextAndTheFileIsKept() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        let digits = String(repeating: "7", count: 100_000)
        let text = #"{"big": 1e400, "negative": -1E+400, "digits": \#(digits), "tiny": 1e-400, "nested": [1.5e999], "theme": "dark"}"#
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: Data(text.utf8))

        let store = try root.store()
        XCTAssertNil(store.damagedFileMovedAside, "the file was taken for damage")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path + "/groups").filter { $0.contains(".corrupt-") }, [])
        XCTAssertEqual(store.string(forKey: "theme"), "dark", "the rest of the file loads")
        XCTAssertEqual(store.prefValue(forKey: "big"), "1e400")
        XCTAssertEqual(store.prefValue(forKey: "negative"), "-1E+400")
        XCTAssertEqual(store.prefValue(forKey: "digits"), .string(digits))
        XCTAssertEqual(store.prefValue(forKey: "tiny"), 0.0, "below a Double's range: the nearest Double")
        XCTAssertEqual(store.prefValue(forKey: "nested"), ["1.5e999"])
        XCTAssertNil(store.value(forKey: "big", as: Double.self), "a typed read as a number gets the default")
        XCTAssertEqual(store.double(forKey: "big"), 0)

        // The next write keeps every key and the digits.
        store.set(2, forKey: "another")
        try store.flush()
        let written = try root.fileObject()
        XCTAssertEqual(written["big"] as? String, "1e400")
        XCTAssertEqual(written["digits"] as? String, digits)
        XCTAssertEqual(written["theme"] as? String, "dark")
        XCTAssertEqual(Set(written.keys), ["big", "negative", "digits", "tiny", "nested", "theme", "another"])
    }
}
