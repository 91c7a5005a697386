import Foundation
import XCTest
import RizqPrefs
@testable import RizqImport

/// Inference of types for keys no plan rule names, and the plan's declared conversions.
final class ValueInferenceTests: XCTestCase {
    private func check(_ text: String, _ value: PrefValue, _ rule: ValueInference.Rule, file: StaticString = #filePath, line: UInt = #line) {
        let result = ValueInference.infer(text)
        XCTAssertEqual(result.value, value, "value of \(text)", file: file, line: line)
        XCTAssertEqual(result.rule, rule, "rule for \(text)", file: file, line: line)
    }

    func testBooleans() {
        check("true", .bool(true), .boolean)
        check("false", .bool(false), .boolean)
        check("True", .string("True"), .text)
        check("yes", .string("yes"), .text)
    }

    func testIntegers() {
        check("0", .int(0), .integer)
        check("42", .int(42), .integer)
        check("-503", .int(-503), .integer)
        check("1732283220123", .int(1_732_283_220_123), .integer)
        check("9007199254740991", .int(9_007_199_254_740_991), .integer)
        check("9007199254740992", .string("9007199254740992"), .idLikeDigits)
        check("123456789012345678901234", .string("123456789012345678901234"), .idLikeDigits)
        check("05", .string("05"), .leadingZero)
        check("007", .string("007"), .leadingZero)
        check("-0", .string("-0"), .leadingZero)
        check("+5", .string("+5"), .text)
        check("1,000", .string("1,000"), .text)
    }

    func testDecimals() {
        check("0.5", .double(0.5), .decimal)
        check("-3.25", .double(-3.25), .decimal)
        check("1e3", .double(1000), .decimal)
        check("1.0", .double(1.0), .decimal)
        check("5.0.0.0", .string("5.0.0.0"), .text)
        check(".5", .string(".5"), .text)
        check("5.", .string("5."), .text)
        check("nan", .string("nan"), .text)
        check("inf", .string("inf"), .text)
        check("1e400", .string("1e400"), .text)
    }

    func testStoredAsIs() {
        check("", .string(""), .storedAsIs)
        check("null", .string("null"), .storedAsIs)
        check("undefined", .string("undefined"), .storedAsIs)
        check("empty", .string("empty"), .text)
    }

    func testJSONObjectsAndArrays() {
        check(#"{"a":1,"b":[true,null,0.5],"c":{"d":"e"}}"#,
              .dictionary(["a": .int(1), "b": .array([.bool(true), .null, .double(0.5)]), "c": .dictionary(["d": .string("e")])]), .json)
        check("[]", .array([]), .json)
        check("{}", .dictionary([:]), .json)
        check("[1, 2", .string("[1, 2"), .text)
        check("{not json}", .string("{not json}"), .text)
        // Member order and repeated members: the last wins, as JSON.parse does.
        check(#"{"a":1,"a":2}"#, .dictionary(["a": .int(2)]), .json)
    }

    func testJSONStringLiteralIsUnwrappedOnce() {
        check(#""desktop""#, .string("desktop"), .jsonStringLiteral)
        check(#""5.0.0.0""#, .string("5.0.0.0"), .jsonStringLiteral)
        check(#""\"twice\"""#, .string(#""twice""#), .jsonStringLiteral)
        check(#""true""#, .string("true"), .jsonStringLiteral)
    }

    func testNestedJSONStringsAreDecodedThreeLevelsDeep() {
        // redux-persist: each slice is itself JSON.stringify-ed, scalars included.
        let reduxPersist = #"{"auth":"{\"user\":{\"name\":\"Amina\"}}","theme":"\"dark\"","count":"5","_persist":"{\"version\":-1,\"rehydrated\":true}"}"#
        let result = ValueInference.infer(reduxPersist)
        XCTAssertEqual(result.rule, .json)
        XCTAssertEqual(result.value, .dictionary([
            "auth": .dictionary(["user": .dictionary(["name": .string("Amina")])]),
            "theme": .string("dark"),
            "count": .int(5),
            "_persist": .dictionary(["version": .int(-1), "rehydrated": .bool(true)]),
        ]))
        XCTAssertEqual(result.nestedDecoded, 4)
        // Elsewhere only strings holding objects or arrays are decoded; other strings stay text.
        check(#"{"state":{"todos":"[1,2]","title":"5"},"version":0}"#,
              .dictionary(["state": .dictionary(["todos": .array([.int(1), .int(2)]), "title": .string("5")]), "version": .int(0)]), .json)
        // Four levels of JSON in strings: the fourth stays a string.
        let level4 = #"{"x":1}"#
        let level3 = #"{"l3":\#(jsonString(level4))}"#
        let level2 = #"{"l2":\#(jsonString(level3))}"#
        let level1 = #"{"l1":\#(jsonString(level2))}"#
        let top = #"{"l0":\#(jsonString(level1))}"#
        let deep = ValueInference.infer(top)
        XCTAssertEqual(deep.nestedDecoded, 3)
        XCTAssertEqual(deep.value, .dictionary(["l0": .dictionary(["l1": .dictionary(["l2": .dictionary(["l3": .string(level4)])])])]))
    }

    func testPlanTypes() throws {
        XCTAssertEqual(try ImportValueType.bool.convert("true"), .bool(true))
        XCTAssertEqual(try ImportValueType.bool.convert("0"), .bool(false))
        XCTAssertThrowsError(try ImportValueType.bool.convert("yes"))
        XCTAssertEqual(try ImportValueType.int.convert("05"), .int(5))
        XCTAssertEqual(try ImportValueType.int.convert("-9223372036854775808"), .int(Int.min))
        XCTAssertThrowsError(try ImportValueType.int.convert("9223372036854775808"))
        XCTAssertThrowsError(try ImportValueType.int.convert("1.5"))
        XCTAssertEqual(try ImportValueType.double.convert("42"), .double(42))
        XCTAssertThrowsError(try ImportValueType.double.convert("nan"))
        XCTAssertEqual(try ImportValueType.string.convert(" 5 "), .string(" 5 "))
        XCTAssertEqual(try ImportValueType.json.convert(#"{"a":[1]}"#), .dictionary(["a": .array([.int(1)])]))
        XCTAssertEqual(try ImportValueType.json.convert(#""x""#), .string("x"))
        XCTAssertNil(try ImportValueType.json.convert("null"), "JSON null: nothing to store")
        XCTAssertThrowsError(try ImportValueType.json.convert("{")) { error in
            XCTAssertTrue((error as? ImportValueType.ConversionFailure)?.reason.contains("JSON") == true)
        }
    }

    func testPlanDates() throws {
        XCTAssertEqual(try ImportValueType.date.convert("2026-11-22T13:47:00.123Z"), .date(Date(timeIntervalSince1970: 1_795_355_220.123)))
        XCTAssertEqual(try ImportValueType.date.convert("2026-11-22T14:47:00+01:00"), .date(Date(timeIntervalSince1970: 1_795_355_220)))
        XCTAssertEqual(try ImportValueType.date.convert(#""2026-11-22T13:47:00Z""#), .date(Date(timeIntervalSince1970: 1_795_355_220)), "JSON.stringify(date)")
        XCTAssertEqual(try ImportValueType.date.convert("1795355220123"), .date(Date(timeIntervalSince1970: 1_795_355_220.123)))
        XCTAssertEqual(try ImportValueType.date.convert("2026-11-22"), .date(Date(timeIntervalSince1970: 1_795_305_600)))
        XCTAssertThrowsError(try ImportValueType.date.convert("Sat Apr 28 2018 14:59:57 GMT+0200"))
    }

    func testGlobPatterns() {
        XCTAssertTrue(GlobPattern("sb-*-auth-token").matches("sb-abcd-auth-token"))
        XCTAssertFalse(GlobPattern("sb-*-auth-token").matches("sb-abcd-auth-token.0"))
        XCTAssertTrue(GlobPattern("firebase:authUser:*").matches("firebase:authUser:key:[DEFAULT]"))
        XCTAssertTrue(GlobPattern("*").matches(""))
        XCTAssertTrue(GlobPattern("a?c").matches("abc"))
        XCTAssertFalse(GlobPattern("a?c").matches("ac"))
        XCTAssertTrue(GlobPattern(#"a\*"#).matches("a*"))
        XCTAssertFalse(GlobPattern(#"a\*"#).matches("ab"))
        XCTAssertTrue(GlobPattern("😀*").matches("😀 key"))
        XCTAssertTrue(GlobPattern("*a*b*c*").matches("xxaxxbxxcxx"))
        XCTAssertFalse(GlobPattern(String(repeating: "*a", count: 30) + "b").matches(String(repeating: "a", count: 60)))
        XCTAssertFalse(GlobPattern("key").hasWildcards)
        XCTAssertTrue(GlobPattern("k?y").hasWildcards)
    }
}
