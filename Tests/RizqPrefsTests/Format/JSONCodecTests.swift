import Foundation
import RizqJSON
import XCTest
@testable import RizqPrefs

final class JSONCodecTests: XCTestCase {
    func testEdgeNumbersKeepTheirTypesAndValues() throws {
        let value: PrefValue = .dictionary([
            "min": .int(.min), "max": .int(.max), "tenth": .double(0.1), "one": .double(1.0),
            "huge": .double(1e300), "tiny": .double(Double.leastNonzeroMagnitude), "negzero": .double(-0.0), "u": .unsigned(.max),
        ])
        let text = try JSONWriter.string(value)
        XCTAssertTrue(text.contains(#""one":1.0"#), text)
        XCTAssertTrue(text.contains(#""min":-9223372036854775808"#), text)
        let back = try JSONReader.parse(text)
        XCTAssertEqual(back, value)
        guard case .dictionary(let entries) = back, case .double(let tiny) = entries["tiny"], case .double(let negzero) = entries["negzero"] else {
            return XCTFail("shape")
        }
        XCTAssertEqual(tiny.bitPattern, Double.leastNonzeroMagnitude.bitPattern)
        XCTAssertEqual(negzero.bitPattern, (-0.0).bitPattern)
    }

    func testStringsWithAnyUnicodeAndControlCharactersRoundTrip() throws {
        let samples = ["", "plain", "quote \" backslash \\ slash /", "tab\tnl\nnul\u{0}bell\u{7}", "emoji 🕌🤲🏽 and 日本語", "\u{10FFFF}", "é vs e\u{301}"]
        for sample in samples {
            let text = try JSONWriter.string(.string(sample))
            XCTAssertEqual(try JSONReader.parse(text), .string(sample), text)
            // Foundation's reader agrees with ours on what we wrote.
            let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? String
            XCTAssertEqual(foundation, sample)
        }
    }

    /// Every byte value at every position of strings of 0 to 24 bytes (the writer checks eight
    /// bytes at a time, then the rest one by one): exactly the bytes JSON must escape are
    /// escaped, in native strings and in small ones, and the text reads back as the string.
    func testEveryByteThatNeedsEscapingIsEscapedAtEveryPosition() throws {
        func expected(_ scalar: Unicode.Scalar) -> String {
            switch scalar.value {
            case 0x22: return "\\\""
            case 0x5C: return "\\\\"
            case 0x0A: return "\\n"
            case 0x0D: return "\\r"
            case 0x09: return "\\t"
            case 0x08: return "\\b"
            case 0x0C: return "\\f"
            case 0..<0x20: return "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: return String(scalar)
            }
        }
        for length in 1...24 {
            for position in 0..<length {
                for value in UInt32(0)..<0x80 {
                    guard let scalar = Unicode.Scalar(value) else { continue }
                    var sample = String(repeating: "a", count: length)
                    var characters = Array(sample.unicodeScalars)
                    characters[position] = scalar
                    sample = String(String.UnicodeScalarView(characters))
                    let prefix = String(repeating: "a", count: position)
                    let suffix = String(repeating: "a", count: length - position - 1)
                    let text = try JSONWriter.string(.string(sample))
                    XCTAssertEqual(text, "\"" + prefix + expected(scalar) + suffix + "\"", "byte \(value) at \(position) of \(length)")
                    XCTAssertEqual(try JSONReader.parse(text), .string(sample))
                }
            }
        }
        XCTAssertEqual(try JSONWriter.string(.string("")), "\"\"")
    }

    func testEscapesAndSurrogatePairsAreDecoded() throws {
        XCTAssertEqual(try JSONReader.parse(#""\u00e9\ud83d\ude00\n\/""#), .string("é😀\n/"))
        XCTAssertThrowsError(try JSONReader.parse(#""\ud83d""#))
        XCTAssertThrowsError(try JSONReader.parse(#""\ude00""#))
    }

    func testTaggedDateAndDataRoundTripAndMalformedTagsStayDictionaries() throws {
        let date = Date(timeIntervalSince1970: 1_763_819_220.123456)
        let bytes = Data([0, 1, 2, 255, 0])
        let text = try JSONWriter.string(.array([.date(date), .data(bytes)]))
        XCTAssertEqual(text, #"[{"$date":"2025-11-22T13:47:00.123456Z"},{"$data":"AAEC/wA="}]"#)
        guard case .array(let items) = try JSONReader.parse(text), case .date(let back) = items[0] else { return XCTFail("shape") }
        XCTAssertEqual(back.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 1e-6)
        XCTAssertEqual(items[1], .data(bytes))
        // Not a valid payload, or a second key: kept as the user wrote it.
        XCTAssertEqual(try JSONReader.parse(#"{"$date":"yesterday"}"#), .dictionary(["$date": "yesterday"]))
        XCTAssertEqual(try JSONReader.parse(#"{"$data":"AA==","x":1}"#), .dictionary(["$data": "AA==", "x": 1]))
    }

    func testDatesBeforeEpochAndWithOffsetsParse() throws {
        let early = Date(timeIntervalSince1970: -1_000_000.5)
        XCTAssertEqual(ISO8601Micro.parse(try XCTUnwrap(ISO8601Micro.format(early)))?.timeIntervalSince1970, early.timeIntervalSince1970)
        XCTAssertEqual(ISO8601Micro.parse("2026-01-01T02:00:00+02:00")?.timeIntervalSince1970, ISO8601Micro.parse("2026-01-01T00:00:00Z")?.timeIntervalSince1970)
        XCTAssertNil(ISO8601Micro.parse("2026-13-01T00:00:00Z"))
    }

    /// Infinities and NaN are written in their tagged form (issue 29); a date beyond the years a
    /// suite holds is what cannot be written, with where it is.
    func testNonFiniteDoublesAreTaggedAndUnwritableDatesAreRefused() throws {
        XCTAssertEqual(try JSONWriter.string(.dictionary(["a": .array([.double(.nan), .double(-.infinity)])])), #"{"a":[{"$double":"nan"},{"$double":"-inf"}]}"#)
        XCTAssertThrowsError(try JSONWriter.bytes(.dictionary(["a": .array([.date(Date(timeIntervalSince1970: 1e15))])]))) { error in
            XCTAssertEqual((error as? JSONWriter.Unrepresentable)?.path, "/a/0")
        }
    }

    func testMalformedInputReportsWhereItBreaks() {
        let cases: [(String, Int, Int)] = [
            ("{\n  \"a\": 1,\n}", 3, 1),  // trailing comma
            ("{\"a\": tru}", 1, 7),
            ("[1, 2", 1, 6),
            ("{\"a\": 01}", 1, 8),
            ("// comment\n{}", 1, 1),
            ("{'a': 1}", 1, 2),
            ("{} {}", 1, 4),
            ("", 1, 1),
        ]
        for (text, line, column) in cases {
            XCTAssertThrowsError(try JSONReader.parse(text), text) { error in
                guard let failure = error as? JSONReader.Failure else { return XCTFail("type") }
                XCTAssertEqual(failure.line, line, "\(text): \(failure)")
                XCTAssertEqual(failure.column, column, "\(text): \(failure)")
            }
        }
    }

    func testInvalidUTF8AndHostileNestingAreRefused() {
        XCTAssertThrowsError(try JSONReader.parse([0x22, 0x61, 0xFF, 0x22])) { error in
            XCTAssertEqual((error as? JSONReader.Failure)?.offset, 2)
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONReader.parse(deep)) { error in
            XCTAssertTrue("\(error)".contains("nesting"), "\(error)")
        }
    }

    func testDuplicateTopLevelKeysAreReportedAndTheLastWins() throws {
        let (value, duplicates) = try JSONReader.parseReporting(Array(#"{"a":1,"b":2,"a":3}"#.utf8))
        XCTAssertEqual(value, .dictionary(["a": 3, "b": 2]))
        XCTAssertEqual(duplicates, ["a"])
    }

    func testASuiteFileWithARepeatedKeyKeepsTheLastValueOfEachKey() throws {
        // Many members, so that the table is made at its final size from more than one chunk.
        var text = "{"
        for index in 0..<1_000 { text += "\"k\(index)\": \(index), " }
        text += "\"k7\": \"last\", \"k999\": null}"
        guard case .object(let table, let version) = try JSONReader.parseSuiteFile(Array(text.utf8)) else {
            return XCTFail("a suite file's top level is an object")
        }
        XCTAssertNil(version)
        XCTAssertEqual(table.count, 1_000)
        XCTAssertEqual(table["k7"], "last")
        XCTAssertEqual(table["k999"], .null)
        XCTAssertEqual(table["k500"], 500)
    }

    func testKeysSortInCodePointOrderWhateverTheirFirstSixteenBytes() {
        // Keys that tie on their first 16 bytes, differ only past them, hold NUL, non-ASCII
        // text (UTF-8 byte order is code point order) and canonically equivalent spellings
        // (kept apart, never reordered as String's `<` would).
        var keys = ["", "a", "a\u{0}", "a\u{0}b", "b", "é", "e\u{301}", "\u{1F600}", "\u{FFFF}", "Z", "key-1000", "key-10000", "key-1000a"]
        let long = String(repeating: "x", count: 16)
        keys += [long, long + "a", long + "\u{0}", long + "é", long + "b" + long, long + "b", long + "ba"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let length = Int.random(in: 0...24, using: &generator)
            let alphabet: [Character] = ["a", "b", "x", "\u{0}", "é", "\u{7F}", "\u{80}", "中"]
            keys.append(String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }))
        }
        let expected = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        XCTAssertEqual(JSONWriter.sortedKeys(keys.shuffled()).map { Array($0.utf8) }, expected.map { Array($0.utf8) })
    }

    /// From 256 keys on, the sort goes by bytes (a radix sort of the first 16): the same order,
    /// for keys with a long common start, keys alike in their first 16 bytes, repeated keys,
    /// NUL, non-ASCII text and every length from 0 to 40 bytes.
    func testManyKeysSortInCodePointOrderAsAFewDo() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "b", "x", "\u{0}", "é", "\u{7F}", "\u{80}", "中", "9", "-"]
        for count in [256, 257, 1_000, 20_000] {
            var keys: [String] = []
            for index in 0..<count {
                switch index % 4 {
                case 0: keys.append("key-\(Int.random(in: 0..<(count * 2), using: &generator))")
                case 1: keys.append(String(repeating: "p", count: 16) + String(Int.random(in: 0..<50, using: &generator)))
                default:
                    let length = Int.random(in: 0...40, using: &generator)
                    keys.append(String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }))
                }
            }
            let expected = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            XCTAssertEqual(JSONWriter.sortedKeys(keys.shuffled()).map { Array($0.utf8) }, expected.map { Array($0.utf8) }, "\(count) keys")
        }
        // Every key alike but for its last byte, past the sixteenth, in reverse order.
        let alike = (0..<300).reversed().map { String(repeating: "k", count: 20) + String(format: "%03d", $0) }
        XCTAssertEqual(JSONWriter.sortedKeys(alike), alike.reversed())
    }

    func testSuiteFileIsPrettySortedAndReadableByFoundation() throws {
        let bytes = try JSONWriter.suiteFile(["b": 1, "a": .array([true, .null]), "ä": "x", "Z": .dictionary([:])])
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text, "{\n  \"Z\": {},\n  \"a\": [\n    true,\n    null\n  ],\n  \"b\": 1,\n  \"ä\": \"x\"\n}\n")
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
