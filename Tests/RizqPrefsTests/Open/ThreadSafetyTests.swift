import Foundation
import RizqJSON
import XCTest
@testable import RizqPrefs

final class ThreadSafetyTests: XCTestCase {
    func testEightThreadsTimesTenThousandMixedOperations() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for op in 0..<10_000 {
                let key = "t\(thread)-\(op % 100)"
                switch op % 5 {
                case 0, 1: store.set(op, forKey: key)
                case 2: _ = store.integer(forKey: key)
                case 3: _ = store.dictionaryRepresentation().count
                default:
                    if op % 10 == 4 { store.removeObject(forKey: "t\(thread)-removed") } else { store.set("x", forKey: "shared") }
                }
                if op % 2_500 == 0 { try? store.flush() }
            }
        }
        try store.flush()
        // Each thread's last write to each of its keys is what is stored, in memory and on disk.
        let object = try root.fileObject()
        var expectedCount = 1  // "shared"
        for thread in 0..<8 {
            for slot in 0..<100 {
                let last = (0..<10_000).last { $0 % 100 == slot && ($0 % 5 == 0 || $0 % 5 == 1) }
                if last != nil { expectedCount += 1 }
                XCTAssertEqual(store.value(forKey: "t\(thread)-\(slot)", as: Int.self), last, "t\(thread)-\(slot)")
                XCTAssertEqual(object["t\(thread)-\(slot)"] as? Int, last)
            }
        }
        XCTAssertEqual(object["shared"] as? String, "x")
        XCTAssertEqual(object.count, expectedCount)
        // Byte for byte what a whole encoding gives, though most writes copied unchanged text.
        XCTAssertEqual(root.fileBytes().map { Array($0) }, try JSONWriter.suiteFile(store.entries))
    }
}
