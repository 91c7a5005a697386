import Foundation
import XCTest
@testable import RizqPrefs

/// The round-trip promise (README, "The store"): what goes in comes back exactly, read by a fresh process.
final class RoundTripTests: XCTestCase {
    func testEdgeValuesComeBackExactlyInAFreshProcess() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let date = Date(timeIntervalSince1970: 1_763_819_220.123456)
        let bytes = Data((0...255).map { UInt8($0) } + [0, 0])
        let text = "any Unicode: 🕌 é e\u{301} 日本語 \u{0} \"quoted\" \\ \n tab\t"
        store.set(Int.min, forKey: "int.min")
        store.set(Int.max, forKey: "int.max")
        store.set(0.1, forKey: "double 0.1")
        store.set(1.0, forKey: "double@1.0")
        store.set(1e300, forKey: "double.1e300")
        store.set(Float(0.1), forKey: "float")
        store.set(Int8.min, forKey: "int8")
        store.set(UInt64.max, forKey: "uint64")
        store.set(true, forKey: "bool")
        store.set(text, forKey: "ключ.string")
        store.set(date, forKey: "date")
        store.set(bytes, forKey: "data")
        store.set(URL(string: "https://rizq.app/journeys?id=1"), forKey: "url")
        try store.flush()

        let reads = [
            "int.min:int", "int.max:int", "int.max:integer", "double 0.1:double", "double@1.0:double", "double.1e300:double",
            "float:float", "int8:int8", "uint64:uint64", "bool:bool", "ключ.string:string", "date:date", "data:data", "url:url",
            "double@1.0:int",
        ]
        let output = try Child.run(root, "group.com.rizq.test", ["read"] + reads)
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.lines, [
            "\(Int.min)", "\(Int.max)", "\(Int.max)", "\((0.1).bitPattern)", "\((1.0).bitPattern)", "\((1e300).bitPattern)",
            "\(Float(0.1).bitPattern)", "\(Int8.min)", "\(UInt64.max)", "true", Data(text.utf8).base64EncodedString(),
            "\(date.timeIntervalSince1970)", bytes.base64EncodedString(), "https://rizq.app/journeys?id=1",
            "1",
        ])
        // The file is plain JSON that Foundation can read; 1.0 is written as 1.0, not 1.
        let raw = String(decoding: try XCTUnwrap(root.fileBytes()), as: UTF8.self)
        XCTAssertTrue(raw.contains(#""double@1.0": 1.0"#), raw)
        XCTAssertTrue(raw.contains(#""float": 0.1,"#), raw)
        XCTAssertNotNil(try root.fileObject()["int.max"])
    }

    func testArraysAndDictionariesOfValuesRoundTrip() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let nested: [String: Any] = ["ids": [1, 2, 3], "names": ["a", "b"], "inner": ["on": true, "when": Date(timeIntervalSince1970: 0)]]
        store.set(nested, forKey: "nested")
        store.set(["x", "y"], forKey: "strings")
        try store.flush()
        let output = try Child.run(root, "group.com.rizq.test", ["read", "nested:json", "strings:json"])
        XCTAssertEqual(output.lines, [
            #"{"ids":[1,2,3],"inner":{"on":true,"when":{"$date":"1970-01-01T00:00:00Z"}},"names":["a","b"]}"#,
            #"["x","y"]"#,
        ])
        let fresh = try SuiteStore(suite: "group.com.rizq.test", appID: "tests", root: root.path)
        XCTAssertEqual(fresh.stringArray(forKey: "strings"), ["x", "y"])
        XCTAssertEqual(fresh.dictionary(forKey: "nested")?["ids"] as? [Int], [1, 2, 3])
    }

    /// What a suite cannot hold — a date beyond the years ±999,999, a value nested too deep —
    /// is refused, and nothing is written. (Infinities and NaN are stored since issue 29:
    /// NonFiniteDoubleTests.)
    func testUnstorableValuesAreRefusedAndNothingIsWritten() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1.5, forKey: "ratio")
        try store.flush()
        let before = root.fileBytes()
        let far = Date(timeIntervalSince1970: 1e15)
        XCTAssertThrowsError(try store.put(far, forKey: "ratio")) { error in
            guard case SuiteStoreError.invalidValue(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key, "ratio")
            XCTAssertTrue("\(error)".contains("years"), "\(error)")
        }
        XCTAssertThrowsError(try store.put([Date(), far], forKey: "list"))
        store.set(far, forKey: "ratio")  // Foundation's spelling: refused and logged
        store.set(["a": far], forKey: "dict")
        try store.flush()
        XCTAssertEqual(store.double(forKey: "ratio"), 1.5)
        XCTAssertNil(store.object(forKey: "list"))
        XCTAssertNil(store.object(forKey: "dict"))
        XCTAssertEqual(root.fileBytes(), before)
    }

    func testUnsupportedTypesAreRefused() throws {
        let store = try TemporaryRoot().store()
        struct NotStorable {}
        XCTAssertThrowsError(try store.put(any: NotStorable(), forKey: "x"))
        XCTAssertThrowsError(try store.put(any: ["ok": 1, "bad": NotStorable()], forKey: "x"))
        XCTAssertNil(store.object(forKey: "x"))
    }
}
