import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 8: text that is not valid Unicode is refused where it enters the library,
/// never rewritten to U+FFFD (which made two different keys one). A Swift `String` is always
/// valid; what can carry a broken one is a Foundation `NSString` holding half a UTF-16
/// surrogate pair — as a value, inside an array or dictionary, or as a dictionary's key — and
/// bytes the library turns into names itself.
final class InvalidUnicodeTests: XCTestCase {
    /// An `NSString` of UTF-16 code units.
    static func text(_ units: [UInt16]) -> NSString {
        NSString(characters: units, length: units.count)
    }

    func testANSStringWithHalfASurrogatePairIsRefusedNotRewritten() throws {
        let store = try TemporaryRoot().store()
        let broken: [Any] = [
            Self.text([0xD800]),
            Self.text([0x61, 0xDC00, 0x62]),
            NSArray(array: ["fine", Self.text([0xD83D])]),
            NSDictionary(dictionary: ["k": Self.text([0xDFFF])]),
        ]
        for (index, value) in broken.enumerated() {
            XCTAssertThrowsError(try store.put(any: value, forKey: "k\(index)"), "value \(index)") { error in
                XCTAssertTrue("\(error)".contains("Unicode"), "\(error)")
            }
            store.set(value, forKey: "k\(index)")
            XCTAssertNil(store.prefValue(forKey: "k\(index)"), "set logs and stores nothing: value \(index)")
        }
        XCTAssertNoThrow(try store.put(any: Self.text([0xD83D, 0xDE00]), forKey: "paired"))
        XCTAssertEqual(store.string(forKey: "paired"), "😀")
    }

    /// Two dictionary keys that differ only in their broken halves must not become one key.
    func testADictionaryKeyWithHalfASurrogatePairIsRefused() throws {
        let store = try TemporaryRoot().store()
        let dictionary = NSMutableDictionary()
        dictionary[Self.text([0xD800])] = 1
        dictionary[Self.text([0xD801])] = 2
        XCTAssertThrowsError(try store.put(any: dictionary, forKey: "d"))
        store.register(defaults: ["d": dictionary])
        XCTAssertNil(store.prefValue(forKey: "d"), "not registered either")
        store.setPersistentDomain(["fine": 1, "bad": Self.text([0xDBFF])], forName: store.suiteName)
        XCTAssertNil(store.prefValue(forKey: "bad"))
    }
}
