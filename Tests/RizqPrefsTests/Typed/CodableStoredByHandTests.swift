import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 8: `Key(codable:)` and `@CodableUserDefault` read a value that ported code
/// stored by hand the usual `UserDefaults` way — `JSONEncoder` output as `Data`, or that JSON as
/// a `String` — instead of returning the default. Writing stores nested JSON, as always.
final class CodableStoredByHandTests: XCTestCase {
    struct Profile: Codable, Equatable, Sendable {
        var name: String
        var goal: Int
        var joined: Date
        var avatar: Data
    }

    static let sample = Profile(name: "Aisha 🌙", goal: 5, joined: Date(timeIntervalSinceReferenceDate: 1234.5), avatar: Data([0, 255]))

    func testAKeyReadsJSONStoredAsData() throws {
        let store = try TemporaryRoot().store()
        store.set(try JSONEncoder().encode(Self.sample), forKey: "profile")
        let key = Key<Profile?>(codable: "profile", default: nil, store: store)
        XCTAssertEqual(key.value, Self.sample)
    }

    func testAKeyReadsJSONStoredAsAString() throws {
        let store = try TemporaryRoot().store()
        let text = String(decoding: try JSONEncoder().encode(Self.sample), as: UTF8.self)
        store.set(text, forKey: "profile")
        XCTAssertEqual(Key<Profile?>(codable: "profile", default: nil, store: store).value, Self.sample)
    }

    func testAPropertyWrapperReadsJSONStoredAsDataAndWritesNestedJSON() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(try JSONEncoder().encode(["a", "b"]), forKey: "list")
        let wrapper = CodableUserDefault("list", defaultValue: [String](), store: store)
        XCTAssertEqual(wrapper.wrappedValue, ["a", "b"])
        wrapper.wrappedValue = ["c"]
        try store.flush()
        XCTAssertEqual(try root.fileObject()["list"] as? [String], ["c"], "written as nested JSON")
    }

    /// A string that is simply the value (a `Codable` that is itself a `String`) still reads as
    /// itself, and text that is not JSON of the type still reads as the default.
    func testPlainStringsAndForeignTextStillReadAsBefore() throws {
        let store = try TemporaryRoot().store()
        store.set("\"quoted\"", forKey: "s")
        XCTAssertEqual(Key<String>(codable: "s", default: "", store: store).value, "\"quoted\"")
        store.set("not json", forKey: "p")
        XCTAssertNil(Key<Profile?>(codable: "p", default: nil, store: store).value)
    }
}
