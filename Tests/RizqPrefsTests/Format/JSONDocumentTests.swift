import XCTest
import RizqJSON
@testable import RizqPrefs

/// `JSONReader.parseDocument`: the order-keeping tree, and the same strictness and failures as
/// the `PrefValue` reader, since both are one parser.
final class JSONDocumentTests: XCTestCase {
    func testMembersKeepOrderRepeatsRangesAndNumberTexts() throws {
        let text = #"{"b": 1.50, "a": [true, null], "b": -12345678901234567890123, "t": {"$date": "2026-01-01T00:00:00Z"}}"#
        let bytes = Array(text.utf8)
        let root = try JSONReader.parseDocument(bytes).root
        let members = try XCTUnwrap(root.members)
        XCTAssertEqual(members.map(\.key), ["b", "a", "b", "t"])
        XCTAssertEqual(members.map(\.keyOffset), [1, 12, 31, 62])
        XCTAssertEqual(members[0].value.kind, .number("1.50"))
        XCTAssertEqual(root["b"]?.kind, .number("-12345678901234567890123"), "the last occurrence wins")
        XCTAssertEqual(root["t"]?["$date"]?.string, "2026-01-01T00:00:00Z", "tags are plain objects")
        XCTAssertEqual(String(decoding: bytes[members[1].value.range], as: UTF8.self), "[true, null]")
        XCTAssertEqual(String(decoding: bytes[members[3].value.range], as: UTF8.self), #"{"$date": "2026-01-01T00:00:00Z"}"#)
        XCTAssertEqual(root.range, 0..<bytes.count)
        XCTAssertEqual(try JSONReader.parseDocument(#"  "x\n" "#).root, JSONNode(kind: .string("x\n"), range: 2..<7))
    }

    func testLoneSurrogatesAreRefusedOrReplacedAndCounted() throws {
        let text = #"["ab\ud83d", "\ude00", "\ud83d\u0041", "\ud83d\ude00"]"#
        XCTAssertThrowsError(try JSONReader.parseDocument(text))
        let document = try JSONReader.parseDocument(text, loneSurrogates: .replace)
        XCTAssertEqual(document.root.elements?.compactMap(\.string), ["ab\u{FFFD}", "\u{FFFD}", "\u{FFFD}A", "😀"])
        XCTAssertEqual(document.replacedSurrogates, 3)
        XCTAssertEqual(try JSONReader.parseDocument(#""\ud83d\ude00""#).replacedSurrogates, 0)
    }

    func testBothOutputsFailAlikeWithTheReadersWords() {
        let cases: [(String, String, Int)] = [
            ("", "unexpected end of input: the JSON is truncated", 0),
            ("{\"a\": 1,}", "expected a string key in double quotes", 8),
            ("{\"a\" 1}", "expected ':' after an object key", 5),
            ("[1 2]", "expected ',' or ']' after an array element", 3),
            ("{\"a\": tru}", "unexpected word: expected true", 6),
            ("[01]", "a number may not have leading zeros", 2),
            ("\"abc", "unterminated string: the JSON is truncated", 4),
            ("\"\\x\"", "invalid escape '\\x' in a string", 2),
            ("\"\\ud83d\"", "lone UTF-16 high surrogate \\ud83d in a string", 7),
            ("\"a\tb\"", "control character U+09 inside a string must be escaped", 2),
            ("{} x", "unexpected text after the JSON value", 3),
        ]
        for (text, reason, offset) in cases {
            var failures: [JSONReader.Failure] = []
            do { _ = try JSONReader.parse(text) } catch { failures.append(error) }
            do { _ = try JSONReader.parseDocument(text) } catch { failures.append(error) }
            XCTAssertEqual(failures.count, 2, text)
            XCTAssertEqual(failures.first, failures.last, text)
            XCTAssertEqual(failures.first?.reason, reason, text)
            XCTAssertEqual(failures.first?.offset, offset, text)
        }
        XCTAssertThrowsError(try JSONReader.parseDocument([0x22, 0x61, 0xFF, 0x22])) { error in
            XCTAssertEqual((error as? JSONReader.Failure)?.offset, 2)
        }
    }

    func testHostileNestingIsRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONReader.parseDocument(deep)) { error in
            XCTAssertEqual((error as? JSONReader.Failure)?.problem, .tooDeep)
        }
    }

    func testUTF8ValidationPointsAtTheFirstBadByte() {
        XCTAssertEqual(UTF8Validation.firstInvalidOffset(in: [0x61, 0xC0, 0xAF]), 1, "overlong")
        XCTAssertEqual(UTF8Validation.firstInvalidOffset(in: [0xED, 0xA0, 0x80]), 0, "an encoded surrogate")
        XCTAssertEqual(UTF8Validation.firstInvalidOffset(in: [0x61, 0xF4, 0x90, 0x80, 0x80]), 1, "above U+10FFFF")
        XCTAssertEqual(UTF8Validation.firstInvalidOffset(in: [0x61, 0x62, 0xE2, 0x82]), 2, "cut short")
        XCTAssertNil(UTF8Validation.firstInvalidOffset(in: Array("😀 ä ☪️".utf8)))
    }
}
