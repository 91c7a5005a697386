import Foundation
import XCTest
@testable import RizqPrefs

/// A 100 MiB value is stored and read back whole by a fresh process, or
/// refused with an error that says why, and the suite stays usable.
final class LargeValueTests: XCTestCase {
    func testAHundredMebibyteValueIsStoredAndReadBackOrRefusedClearly() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("small", forKey: "before")
        try store.flush()
        let head = "head-\(UUID().uuidString.prefix(11))"
        let tail = "tail-\(UUID().uuidString.prefix(11))"
        // Mostly plain text, as a large value (a cached document, a blob in base64) is, with JSON
        // escapes and two-byte characters in it.
        let middle = String(repeating: String(repeating: "x", count: 1 << 20 - 8) + "é\"\\\n\u{1}", count: 100)
        let value = head + middle + tail
        do {
            try store.put(value, forKey: "huge")
            try store.flush()
        } catch {
            // A size limit is allowed, but it must say so, and nothing else may suffer.
            XCTAssertTrue("\(error)".contains("MiB") || "\(error)".contains("too large"), "\(error)")
            XCTAssertEqual(store.string(forKey: "before"), "small")
            return
        }
        let output = try Child.run(root, "group.com.rizq.test", ["read", "huge:ends", "before:json"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.lines, ["\(value.utf8.count) \(head) \(tail)", #""small""#])
        let fileValue = try root.fileObject()["huge"] as? String
        XCTAssertTrue(fileValue == value, "Foundation reads the same 100 MiB back")
        // Still usable: a small change is written and read back.
        store.set("after", forKey: "small")
        try store.flush()
        let file = try XCTUnwrap(root.fileBytes())
        XCTAssertNotNil(file.range(of: Data(#""small": "after""#.utf8)))
        XCTAssertNotNil(file.range(of: Data(tail.utf8)))
    }
}
