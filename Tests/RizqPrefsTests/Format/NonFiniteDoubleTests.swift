import Foundation
import XCTest
@testable import RizqPrefs
import RizqJSON

/// Issue 29, item 8: infinity and NaN are stored, as Foundation's `UserDefaults` stores them
/// (and sindresorhus/Defaults relies on), in a tagged form as dates are — `{"$double": "inf"}`,
/// `"-inf"`, `"nan"` — and read back by a fresh process. They used to be refused.
final class NonFiniteDoubleTests: XCTestCase {
    func testInfinitiesAndNaNAreStoredAndReadBackByAFreshProcess() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        try store.put(Double.infinity, forKey: "inf")
        try store.put(-Double.infinity, forKey: "minus")
        try store.put(Double.nan, forKey: "nan")
        store.set(Float.infinity, forKey: "float")
        store.set([1.5, .infinity, -.nan] as [Double], forKey: "list")
        store.set(["ratio": Double.nan, "limit": .infinity] as [String: Double], forKey: "nested")
        try store.flush()

        let text = String(decoding: try XCTUnwrap(root.fileBytes()), as: UTF8.self)
        XCTAssertTrue(text.contains(#""inf": {"$double": "inf"}"#), text)
        XCTAssertTrue(text.contains(#""minus": {"$double": "-inf"}"#), text)
        XCTAssertTrue(text.contains(#""nan": {"$double": "nan"}"#), text)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: XCTUnwrap(root.fileBytes())), "still JSON that any reader takes")

        let fresh = try Child.run(root, "group.com.rizq.test", ["read", "inf:double", "minus:double", "nan:double", "float:float", "list:json", "nested:json"])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(fresh.lines.count, 6, fresh.stderr)
        guard fresh.lines.count == 6 else { return }
        XCTAssertEqual(fresh.lines[0], "\(Double.infinity.bitPattern)")
        XCTAssertEqual(fresh.lines[1], "\((-Double.infinity).bitPattern)")
        XCTAssertTrue(UInt64(fresh.lines[2]).map { Double(bitPattern: $0).isNaN } ?? false, fresh.lines[2])
        XCTAssertEqual(fresh.lines[3], "\(Float.infinity.bitPattern)")
        XCTAssertEqual(fresh.lines[4], #"[1.5,{"$double":"inf"},{"$double":"nan"}]"#)
        XCTAssertEqual(fresh.lines[5], #"{"limit":{"$double":"inf"},"ratio":{"$double":"nan"}}"#)
        XCTAssertTrue(store.double(forKey: "nan").isNaN)
        XCTAssertEqual(store.double(forKey: "inf"), .infinity)
    }

    /// A Codable with a NaN or an infinity goes through the encoder and back.
    func testACodableHoldingNonFiniteNumbersRoundTrips() throws {
        struct Limits: Codable, Equatable, Sendable {
            var low: Double
            var high: Float
        }
        let root = TemporaryRoot()
        let store = try root.store()
        let key = Key<Limits>(codable: "limits", default: Limits(low: 0, high: 0), store: store)
        key.value = Limits(low: -.infinity, high: .infinity)
        XCTAssertEqual(key.value, Limits(low: -.infinity, high: .infinity))
        try store.flush()
        let fresh = try Child.run(root, "group.com.rizq.test", ["read", "limits:json"])
        XCTAssertEqual(fresh.lines, [#"{"high":{"$double":"inf"},"low":{"$double":"-inf"}}"#], fresh.stderr)
    }

    /// A NaN equals itself as a stored value: setting it again is no change, and a change
    /// stream does not report it twice.
    func testANaNIsEqualToItselfAsAStoredValue() throws {
        XCTAssertEqual(PrefValue.double(.nan), .double(.nan))
        XCTAssertEqual(Set([PrefValue.double(.nan), .double(-.nan)]).count, 1)
        XCTAssertNotEqual(PrefValue.double(.nan), .double(0))
    }

    /// A dictionary that looks like the tag but is not one stays a dictionary, and one that is
    /// exactly the tag cannot be stored as a dictionary (it would read back as a number).
    func testTagLookalikes() throws {
        let store = try TemporaryRoot().store()
        XCTAssertThrowsError(try store.put(["$double": "inf"] as [String: String], forKey: "k"))
        try store.put(["$double": "infinite"] as [String: String], forKey: "k")
        XCTAssertEqual(try JSONReader.parse(Array(#"{"$double": "infinite"}"#.utf8)), .dictionary(["$double": "infinite"]))
        XCTAssertEqual(try JSONReader.parse(Array(#"{"$double": "-inf"}"#.utf8)), .double(-.infinity))
    }
}
