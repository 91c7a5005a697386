import Foundation
import RizqJSON
import XCTest

@testable import RizqPrefs

/// The suite file's reader has its own loop for the top-level object (keys hashed from the
/// file's bytes, integers read in place) and the scanners have fast paths (eight bytes of a
/// string at a time, short integers in one pass): whatever a file holds, it must read exactly as
/// the general parser reads it, and fail where and as the general parser fails.
final class SuiteFileReaderTests: XCTestCase {
    /// What a reader made of a text: the members, or the failure.
    enum Outcome: Equatable {
        case members([String: PrefValue])
        case notAnObject
        case failure(JSONReader.Failure)
    }

    /// The suite file reader's outcome. Its table is checked against itself on the way: every
    /// key is found again by its `String` (an ASCII key was filed under the hash of its bytes).
    func suiteFileOutcome(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Outcome {
        do {
            guard case .object(let table, let version) = try JSONReader.parseSuiteFile(bytes) else { return .notAnObject }
            var members = table.dictionary
            XCTAssertEqual(members.count, table.count, file: file, line: line)
            for (key, value) in members { XCTAssertEqual(table[key], value, "key \(key.unicodeScalars.map(\.value))", file: file, line: line) }
            if let version {
                members[SchemaVersionMember.key] = .int(version.version)
                if let app = version.app { members[SchemaVersionMember.appKey] = .string(app) }
            }
            return .members(members)
        } catch {
            return .failure(error)
        }
    }

    /// The general parser's outcome (the members of any object, as ``readMembers`` reads them).
    func generalOutcome(_ bytes: [UInt8]) -> Outcome {
        do {
            guard case .dictionary(let members) = try JSONReader.parseSuiteDocument(bytes).value else { return .notAnObject }
            return .members(members)
        } catch {
            return .failure(error)
        }
    }

    func assertSameOutcome(_ bytes: [UInt8], _ note: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
        let fast = suiteFileOutcome(bytes, file: file, line: line)
        let general = generalOutcome(bytes)
        XCTAssertEqual(fast, general, "\(note()) in \(String(decoding: bytes, as: UTF8.self).debugDescription)", file: file, line: line)
    }

    /// A file in the writer's layout with one of each thing the fast paths must hand over: keys
    /// with escapes, non-ASCII keys (one the canonical equivalent of an ASCII key before it),
    /// repeated keys, the schema version, typed markers, nested values, numbers at the edges of
    /// the short integers, strings longer than a word.
    static let variedFile = """
        {
          "$schemaVersion": 3,
          "Key": 1,
          "a\\"b": -0,
          "big": 123456789012345678,
          "bigger": 1234567890123456789,
          "biggest": 18446744073709551615,
          "beyond": 1e400,
          "caf\\u00e9": "x",
          "café": [1, -2.5, {"n": null}],
          "date": {"$date": "2026-11-22T13:47:00Z"},
          "dup": 1,
          "long string value": "abcdefghijklmnopqrstuvwxyz\\n0123",
          "min": -9223372036854775808,
          "nested": {"a": {"b": [true, false]}},
          "\u{212A}ey": 2,
          "zero": 0,
          "dup": "last"
        }

        """

    func testAVariedFileReadsAsTheGeneralParserReadsIt() throws {
        let bytes = Array(Self.variedFile.utf8)
        assertSameOutcome(bytes)
        guard case .members(let members) = suiteFileOutcome(bytes) else { return XCTFail("the file reads") }
        XCTAssertEqual(members["Key"], 2, "\"\\u{212A}ey\" is \"Key\": the last wins")
        XCTAssertEqual(members["dup"], "last")
        XCTAssertEqual(members["a\"b"], 0)
        XCTAssertEqual(members["big"], .int(123_456_789_012_345_678))
        XCTAssertEqual(members["bigger"], .int(1_234_567_890_123_456_789))
        XCTAssertEqual(members["biggest"], .unsigned(18_446_744_073_709_551_615))
        XCTAssertEqual(members["min"], .int(Int.min))
        XCTAssertEqual(members["café"], .array([1, -2.5, .dictionary(["n": .null])]))
        XCTAssertEqual(members[SchemaVersionMember.key], 3)
    }

    func testAFileCutOrChangedAnywhereReadsOrFailsAsTheGeneralParserDoes() {
        let bytes = Array(Self.variedFile.utf8)
        for end in 0...bytes.count { assertSameOutcome(Array(bytes[..<end]), "cut at \(end)") }
        let replacements: [UInt8] = [0x22, 0x5C, 0x2C, 0x7D, 0x3A, 0x30, 0x2D, 0x2E, 0x65, 0x20, 0x0A, 0x01, 0x78, 0xFF, 0xC3]
        for position in bytes.indices {
            for replacement in replacements where replacement != bytes[position] {
                var changed = bytes
                changed[position] = replacement
                assertSameOutcome(changed, "byte \(position) made \(replacement)")
            }
        }
    }

    func testFilesNotLaidOutLineByLineReadTheSame() {
        for text in [
            #"{"a":1,"b":[1,2],"c":"x","a":2}"#,
            "\t{\r\n\"a\"\t:\t-12\r\n,\"b\" : 3 }  ",
            "\u{FEFF}{\"a\": 1}",
            #"{}"#, #"{ }"#, #"[]"#, #"7"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{1:2}"#,
        ] {
            assertSameOutcome(Array(text.utf8))
        }
    }

    func testShortIntegersReadAsTheNumbersTheyAre() throws {
        let cases: [(String, PrefValue)] = [
            ("0", 0), ("-0", 0), ("7", 7), ("-7", -7),
            ("999999999999999999", .int(999_999_999_999_999_999)),
            ("-999999999999999999", .int(-999_999_999_999_999_999)),
            ("9223372036854775807", .int(Int.max)),
            ("9223372036854775808", .unsigned(9_223_372_036_854_775_808)),
            ("-9223372036854775809", .double(-9_223_372_036_854_775_809.0)),
            ("123456789012345678.5", .double(123_456_789_012_345_678.5)),
            ("12e2", .double(1200)), ("12E2", .double(1200)), ("1.5", .double(1.5)), ("-0.0", .double(-0.0)),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try JSONReader.parse(text), expected, text)
            XCTAssertEqual(try JSONReader.parse("[\(text)]"), .array([expected]), text)
            XCTAssertEqual(try JSONReader.parse(#"{"k":\#(text)}"#), .dictionary(["k": expected]), text)
            XCTAssertEqual(try JSONReader.parseDocument(text).root.kind, .number(text), "a tree keeps \(text) as written")
        }
        // Every length the one-word path reads (up to seven digits) and past it, signed, before
        // each byte that may follow a number, with the eight bytes it loads in the text or not.
        var seed: UInt64 = 1
        for digits in 1...19 {
            for _ in 0..<40 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var text = String(1 + seed >> 33 % 9)
                for position in 1..<digits { text += String((seed >> UInt64(position % 50)) % 10) }
                for sign in ["", "-"] {
                    let number = sign + text
                    let expected: PrefValue = Int(number).map(PrefValue.int) ?? UInt64(number).map(PrefValue.unsigned) ?? .double(Double(number) ?? 0)
                    for (before, after) in [("[", "]"), ("[", ",1]"), ("[", " ]"), ("[", "\n]"), ("{\"k\":", "}"), ("[", "           ]")] {
                        XCTAssertEqual(try JSONReader.parse(before + number + after), try JSONReader.parse(before + "\"x\"" + after).replacingString(with: expected), before + number + after)
                    }
                    XCTAssertEqual(suiteFileOutcome(Array("{\n  \"k\": \(number),\n  \"padding to sixteen\": 0\n}\n".utf8)), .members(["k": expected, "padding to sixteen": 0]), number)
                }
            }
        }
        for (text, problem) in [("01", JSONProblem.leadingZero), ("-", .missingDigit(found: nil)), ("-x", .missingDigit(found: 0x78)), ("1.", .missingFractionDigit)] {
            XCTAssertThrowsError(try JSONReader.parse(text), text) { error in
                XCTAssertEqual((error as? JSONReader.Failure)?.problem, problem, text)
            }
        }
    }

    /// A short ASCII key is made from two words: the same `String`, and the same hash, as the
    /// ordinary way makes of its bytes, at every length.
    func testShortASCIIKeysAreTheStringsAndHashesOfTheirBytes() throws {
        #if arch(x86_64) || arch(arm64)
        XCTAssertNotNil(ShortASCIIString.maker, "a 64-bit little-endian String stores short ASCII text in place")
        #endif
        guard let strings = ShortASCIIString.maker else { return }
        let alphabet = Array("key-_0123456789ABCxyz~ !#".utf8)
        for count in 0...ShortASCIIString.maximumCount {
            for shift in 0..<4 {
                let bytes = (0..<count).map { alphabet[($0 * 7 + shift) % alphabet.count] }
                var words: (UInt64, UInt64) = (0, 0)
                for (offset, byte) in bytes.enumerated() {
                    if offset < 8 { words.0 |= UInt64(byte) << UInt64(8 * offset) } else { words.1 |= UInt64(byte) << UInt64(8 * (offset - 8)) }
                }
                let expected = String(decoding: bytes, as: UTF8.self)
                let made = try XCTUnwrap(strings.make(words.0, words.1, count: count))
                XCTAssertEqual(made, expected)
                XCTAssertEqual(Array(made.utf8), bytes)
                XCTAssertEqual(made.hashValue, expected.hashValue)
                XCTAssertEqual(SuiteTable.hash(asciiWords: words.0, words.1, count: count, seed: SuiteTable.seed), SuiteTable.hash(expected), "\(count) bytes")
                // Read from a file, in the top-level loop: found again by the String.
                let file = Array("{\"\(expected)\": 1,\n  \"padding to make sixteen bytes\": 2}".utf8)
                guard case .object(let table, _) = try JSONReader.parseSuiteFile(file) else { return XCTFail("an object") }
                XCTAssertEqual(table[expected], 1, expected)
            }
        }
        XCTAssertNil(strings.make(0, 0, count: 16))
    }

    /// A quote, a backslash, a control character, a non-ASCII character and a broken byte at
    /// every position of strings that span one to three words of the eight-byte scan.
    func testEveryPositionInAStringIsScannedAlike() throws {
        for length in 0..<20 {
            let plain = String(repeating: "a", count: length)
            XCTAssertEqual(try JSONReader.parse("\"\(plain)\""), .string(plain))
            for position in 0..<length {
                let prefix = String(repeating: "a", count: position)
                let suffix = String(repeating: "b", count: length - position - 1)
                XCTAssertEqual(try JSONReader.parse("\"\(prefix)é\(suffix)\""), .string(prefix + "é" + suffix))
                XCTAssertEqual(try JSONReader.parse("\"\(prefix)\\n\(suffix)\""), .string(prefix + "\n" + suffix))
                XCTAssertEqual(try JSONReader.parse("\"\(prefix)\\\"\(suffix)\""), .string(prefix + "\"" + suffix))
                XCTAssertEqual(try JSONReader.parse("[\"\(prefix)\",\"\(suffix)\"]"), .array([.string(prefix), .string(suffix)]))
                XCTAssertThrowsError(try JSONReader.parse("\"\(prefix)\t\(suffix)\"")) { error in
                    XCTAssertEqual((error as? JSONReader.Failure)?.offset, position + 1, "a tab at \(position) of \(length)")
                    XCTAssertEqual((error as? JSONReader.Failure)?.problem, .controlCharacter(0x09))
                }
                var broken = Array("\"\(prefix)x\(suffix)\"".utf8)
                broken[position + 1] = 0xFF
                XCTAssertThrowsError(try JSONReader.parse(broken)) { error in
                    XCTAssertEqual((error as? JSONReader.Failure)?.offset, position + 1, "a broken byte at \(position) of \(length)")
                    XCTAssertEqual((error as? JSONReader.Failure)?.problem, .invalidUTF8)
                }
            }
        }
    }
}

private extension PrefValue {
    /// This value with every string in it replaced by `value` (a number put where a string
    /// stood in the same text).
    func replacingString(with value: PrefValue) -> PrefValue {
        switch self {
        case .string: value
        case .array(let elements): .array(elements.map { $0.replacingString(with: value) })
        case .dictionary(let members): .dictionary(members.mapValues { $0.replacingString(with: value) })
        default: self
        }
    }
}
