import Foundation
import RizqJSON
import RizqPrefs
import XCTest
@testable import RizqImport

/// The five readers on hand-made edge cases, and malformed input of every kind.
final class ImportDumpTests: XCTestCase {
    private func dump(_ text: String, format: ImportDump.Format? = nil, origin: String? = nil) throws -> ImportDump {
        try ImportDump(bytes: Array(text.utf8), source: "test.json", format: format, origin: origin)
    }

    private func failure(_ text: String, format: ImportDump.Format? = nil, origin: String? = nil) -> ImportError.DumpProblem? {
        failure(bytes: Array(text.utf8), format: format, origin: origin)
    }

    private func failure(bytes: [UInt8], format: ImportDump.Format? = nil, origin: String? = nil) -> ImportError.DumpProblem? {
        do {
            _ = try ImportDump(bytes: bytes, source: "test.json", format: format, origin: origin)
            return nil
        } catch {
            guard case .dump(let problem) = error else { XCTFail("not a dump problem: \(error)"); return nil }
            return problem
        }
    }

    // MARK: The five formats

    func testObjectFormat() throws {
        let read = try dump(#"{"theme_mode":"dark","count":"3"}"#)
        XCTAssertEqual(read.format, .object)
        XCTAssertEqual(read.keys, ["theme_mode", "count"])
        XCTAssertEqual(read["count"], "3")
        XCTAssertEqual(read.warnings, [])
        XCTAssertNil(read.origin)
    }

    func testPairsFormat() throws {
        let read = try dump(#"[["b","2"],["a","1"]]"#)
        XCTAssertEqual(read.format, .pairs)
        XCTAssertEqual(read.entries, [.init(key: "b", value: "2"), .init(key: "a", value: "1")])
    }

    func testPlaywrightFormatWithOneOrigin() throws {
        let text = #"{"cookies":[{"name":"sid","value":"x"}],"origins":[{"origin":"http://localhost:5173","localStorage":[{"name":"theme","value":"dark"},{"name":"flag","value":"true"}]}]}"#
        let read = try dump(text)
        XCTAssertEqual(read.format, .playwright)
        XCTAssertEqual(read.origin, "http://localhost:5173")
        XCTAssertEqual(read.keys, ["theme", "flag"])
        XCTAssertTrue(read.warnings.contains { $0.contains("1 cookie(s) were not imported") }, "\(read.warnings)")
    }

    func testPlaywrightSeveralOriginsNeedAChoiceAndTheErrorListsThem() throws {
        let text = #"{"origins":[{"origin":"https://a.example","localStorage":[{"name":"k","value":"1"}]},{"origin":"https://b.example","localStorage":[{"name":"k","value":"2"}]}]}"#
        guard case .originRequired(_, let origins)? = failure(text) else { return XCTFail("expected originRequired") }
        XCTAssertEqual(origins, ["https://a.example", "https://b.example"])
        XCTAssertTrue("\(failure(text).map { "\($0)" } ?? "")".contains("https://a.example, https://b.example"))
        XCTAssertEqual(try dump(text, origin: "https://b.example")["k"], "2")
        XCTAssertEqual(try dump(text, origin: "https://b.example/")["k"], "2", "a trailing slash does not matter")
        guard case .originNotFound(_, let wanted, let listed)? = failure(text, origin: "https://c.example") else { return XCTFail("expected originNotFound") }
        XCTAssertEqual(wanted, "https://c.example")
        XCTAssertEqual(listed, ["https://a.example", "https://b.example"])
    }

    func testPlaywrightPicksTheOnlyOriginWithEntriesAndSaysSo() throws {
        let text = #"{"origins":[{"origin":"https://empty.example","localStorage":[]},{"origin":"https://app.example","localStorage":[{"name":"k","value":"v"}]}]}"#
        let read = try dump(text)
        XCTAssertEqual(read.origin, "https://app.example")
        XCTAssertTrue(read.warnings.contains { $0.contains("the only one with localStorage") })
    }

    func testPlaywrightWithoutOriginsIsEmptyWithAWarning() throws {
        let read = try dump(#"{"cookies":[],"origins":[]}"#)
        XCTAssertEqual(read.entries, [])
        XCTAssertTrue(read.warnings.contains { $0.contains("nothing to import") })
    }

    func testCypressFormat() throws {
        let text = #"{"https://app.example":{"theme":"dark"},"https://other.example":{}}"#
        let read = try dump(text)
        XCTAssertEqual(read.format, .cypress)
        XCTAssertEqual(read.origin, "https://app.example")
        XCTAssertEqual(read["theme"], "dark")
        let two = #"{"https://a.example":{"k":"1"},"https://b.example":{"k":"2"}}"#
        guard case .originRequired(_, let origins)? = failure(two) else { return XCTFail("expected originRequired") }
        XCTAssertEqual(origins, ["https://a.example", "https://b.example"])
        XCTAssertEqual(try dump(two, origin: "https://a.example")["k"], "1")
    }

    func testAnOriginIsNotNeededForSingleOriginFormats() throws {
        let read = try dump(#"{"k":"v"}"#, origin: "https://app.example")
        XCTAssertEqual(read["k"], "v")
        XCTAssertTrue(read.warnings.contains { $0.contains("was not needed") }, "\(read.warnings)")
    }

    func testDevToolsFormat() throws {
        let read = try dump(#"{"entries":[["k","v"],["n","1"]]}"#)
        XCTAssertEqual(read.format, .devtools)
        XCTAssertEqual(read.keys, ["k", "n"])
    }

    func testExplicitFormatIsCheckedAgainstTheShape() throws {
        guard case .wrongShape(_, let position, let reason)? = failure(#"[["k","v"]]"#, format: .playwright) else {
            return XCTFail("expected wrongShape")
        }
        XCTAssertEqual(position.offset, 0)
        XCTAssertTrue(reason.contains("format 'playwright'"), reason)
        // An object with "origins" that is explicitly a flat dump reads as one.
        let flat = try dump(#"{"origins":"[]","x":"1"}"#, format: .object)
        XCTAssertEqual(flat.keys, ["origins", "x"])
    }

    // MARK: Edge cases

    func testEmptyObjectAndEmptyArray() throws {
        XCTAssertEqual(try dump("{}").entries, [])
        XCTAssertEqual(try dump("{}").format, .object)
        XCTAssertEqual(try dump("[]").entries, [])
        XCTAssertEqual(try dump("[]").format, .pairs)
    }

    func testDuplicateKeysLastWinsWithAWarningInEveryFormat() throws {
        let object = try dump("{\"a\":\"1\",\n\"b\":\"x\",\n\"a\":\"2\"}")
        XCTAssertEqual(object["a"], "2")
        XCTAssertEqual(object.keys, ["a", "b"], "the key keeps its first place, as in the browser")
        XCTAssertEqual(object.warnings.count, 1)
        XCTAssertTrue(object.warnings[0].contains("'a' appears 2 times (line 1, line 3)"), object.warnings[0])
        XCTAssertTrue(object.warnings[0].contains("last value wins"))

        let pairs = try dump(#"[["a","1"],["a","2"],["a","3"]]"#)
        XCTAssertEqual(pairs["a"], "3")
        XCTAssertTrue(pairs.warnings[0].contains("appears 3 times"))

        let playwright = try dump(#"{"origins":[{"origin":"o://x","localStorage":[{"name":"a","value":"1"},{"name":"a","value":"2"}]}]}"#)
        XCTAssertEqual(playwright["a"], "2")
        XCTAssertEqual(playwright.warnings.filter { $0.contains("appears 2 times") }.count, 1)
    }

    func testEmptyStringsNullAndUndefinedAreValuesAsStored() throws {
        let read = try dump(#"{"":"empty key","e":"","n":"null","u":"undefined"}"#)
        XCTAssertEqual(read[""], "empty key")
        XCTAssertEqual(read["e"], "")
        XCTAssertEqual(read["n"], "null")
        XCTAssertEqual(read["u"], "undefined")
        XCTAssertEqual(read.entries.map(\.originalKind), [.string, .string, .string, .string])
    }

    func testNonStringValuesAreTakenAsJSONTextWithAWarning() throws {
        let read = try dump(#"{"points":2725,"ratio":0.5,"flag":true,"nothing":null,"list":[1, 2],"text":"t"}"#)
        XCTAssertEqual(read["points"], "2725")
        XCTAssertEqual(read["ratio"], "0.5")
        XCTAssertEqual(read["flag"], "true")
        XCTAssertEqual(read["nothing"], "null")
        XCTAssertEqual(read["list"], "[1, 2]")
        XCTAssertEqual(read.entries.first { $0.key == "points" }?.originalKind, .number)
        XCTAssertEqual(read.warnings.count, 1)
        XCTAssertTrue(read.warnings[0].contains("5 value(s) are not strings"), read.warnings[0])
        XCTAssertTrue(read.warnings[0].contains("'points' (a number)"), read.warnings[0])
    }

    func testAnObjectOfNestedValuesIsNotADumpUnlessAskedFor() throws {
        guard case .wrongShape(_, _, let reason)? = failure(#"{"elements":[{"text":"Water"}]}"#) else { return XCTFail("expected wrongShape") }
        XCTAssertTrue(reason.contains("one saved value"), reason)
        XCTAssertEqual(try dump(#"{"elements":[{"text":"Water"}]}"#, format: .object)["elements"], #"[{"text":"Water"}]"#)
    }

    func testHugeValues() throws {
        let big = String(repeating: "abcdefghij", count: 800_000)   // 8 MB, more than a browser allows
        let read = try dump(flatDumpJSON([("big", big), ("small", "1")]))
        XCTAssertEqual(read["big"]?.utf8.count, 8_000_000)
        XCTAssertEqual(read["big"], big)
        XCTAssertEqual(read["small"], "1")
    }

    func testEmojiAndNonBMPTextRawAndEscaped() throws {
        let family = "👨‍👩‍👧‍👦"
        let raw = try dump("{\"😀 key\":\"\(family) ☪️ 𝄞\"}")
        XCTAssertEqual(raw["😀 key"], "\(family) ☪️ 𝄞")
        let escaped = try dump(#"{"k":"\ud83d\ude00 \u00e4 \ud834\udd1e"}"#)
        XCTAssertEqual(escaped["k"], "😀 ä 𝄞")
        // Half an emoji, as JavaScript can store it: kept as U+FFFD, with a warning.
        let lone = try dump(#"{"cut":"ab\ud83d"}"#)
        XCTAssertEqual(lone["cut"], "ab\u{FFFD}")
        XCTAssertTrue(lone.warnings.contains { $0.contains("lone UTF-16 surrogate") })
    }

    func testJSONInJSONStaysTextInTheDump() throws {
        let inner = #"{"state":{"todos":[{"id":1,"title":"a \"quoted\" title"}]},"version":0}"#
        let read = try dump(flatDumpJSON([("todo-storage", inner), ("double", jsonString(inner))]))
        XCTAssertEqual(read["todo-storage"], inner)
        XCTAssertEqual(read["double"], jsonString(inner))
    }

    func testDigestIsTheSHA256OfTheInput() throws {
        XCTAssertEqual(try dump("{}").digest, "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
        XCTAssertEqual(InputDigest.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(InputDigest.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            InputDigest.hex(Array(String(repeating: "a", count: 1_000_000).utf8)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    // MARK: Malformed input

    func testTruncatedJSONGivesTheOffsetAndLine() {
        let text = "{\n  \"a\": \"1\",\n  \"b\": \"tru"
        guard case .notJSON(let file, let position, let reason, _)? = failure(text) else { return XCTFail("expected notJSON") }
        XCTAssertEqual(file, "test.json")
        XCTAssertEqual(position.offset, text.utf8.count)
        XCTAssertEqual(position.line, 3)
        XCTAssertTrue(reason.contains("truncated"), reason)
        let message = "\(failure(text).map { "\($0)" } ?? "")"
        XCTAssertTrue(message.contains("test.json, line 3, column"), message)
        XCTAssertTrue(message.contains("nothing was imported"), message)
    }

    func testSyntaxErrorsPointAtTheProblem() {
        guard case .notJSON(_, let position, let reason, _)? = failure("{\"a\": \"1\",,}") else { return XCTFail("expected notJSON") }
        XCTAssertEqual(position.offset, 10)
        XCTAssertEqual(position.column, 11)
        XCTAssertTrue(reason.contains("expected a key"), reason)
        guard case .notJSON(_, let trailing, _, _)? = failure("{} x") else { return XCTFail("expected notJSON") }
        XCTAssertEqual(trailing.offset, 3)
        guard case .notJSON(_, _, let empty, _)? = failure("") else { return XCTFail("expected notJSON") }
        XCTAssertTrue(empty.contains("empty"))
    }

    func testBinaryAndNonUTF8Input() {
        var sqlite = Array("SQLite format 3".utf8) + [0]
        sqlite += [0x10, 0x00, 0x01, 0x01, 0xFF, 0xFE, 0x80]
        guard case .notUTF8(_, let position, let hint)? = failure(bytes: sqlite) else { return XCTFail("expected notUTF8") }
        XCTAssertEqual(position.offset, 20)
        XCTAssertTrue(hint?.contains("SQLite") == true)
        let latin1: [UInt8] = Array("{\"k\":\"caf".utf8) + [0xE9] + Array("\"}".utf8)
        guard case .notUTF8(_, let latinPosition, _)? = failure(bytes: latin1) else { return XCTFail("expected notUTF8") }
        XCTAssertEqual(latinPosition.offset, 9)
        XCTAssertEqual(latinPosition.column, 10)
        // Overlong encodings and encoded surrogates are not UTF-8 either.
        XCTAssertNotNil(UTF8Validation.firstInvalidOffset(in: [0xC0, 0xAF]))
        XCTAssertNotNil(UTF8Validation.firstInvalidOffset(in: [0xED, 0xA0, 0x80]))
        XCTAssertNil(UTF8Validation.firstInvalidOffset(in: Array("😀 ä".utf8)))
    }

    func testInputOverTheLimitIsRefusedBeforeParsing() throws {
        let root = ImportRoot()
        let path = root.path + "/huge.json"
        // 70 MiB: a sparse file, so that the test does not write 70 MiB.
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{".utf8)))
        XCTAssertEqual(truncate(path, off_t(70 << 20)), 0)
        XCTAssertThrowsError(try ImportDump(contentsOfFile: path)) { error in
            guard case ImportError.dump(.tooLarge(let file, let size, let limit)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(file, path)
            XCTAssertEqual(size, 70 << 20)
            XCTAssertEqual(limit, 64 << 20)
            XCTAssertTrue("\(error)".contains("64 MiB"), "\(error)")
        }
        XCTAssertThrowsError(try ImportDump(bytes: [UInt8](repeating: 0x20, count: (64 << 20) + 1))) { error in
            guard case ImportError.dump(.tooLarge) = error else { return XCTFail("\(error)") }
        }
    }

    func testWrongTopLevelShapes() {
        for text in [#""just a string""#, "42", "true", "null"] {
            guard case .wrongShape(_, _, let reason)? = failure(text) else { return XCTFail("expected wrongShape for \(text)") }
            XCTAssertTrue(reason.contains("not an object or an array"), reason)
        }
        guard case .wrongShape(_, let position, let reason)? = failure(#"[["a","1"],"oops"]"#) else { return XCTFail("expected wrongShape") }
        XCTAssertEqual(position.offset, 11)
        XCTAssertTrue(reason.contains("element 2 is a string"), reason)
        guard case .wrongShape(_, _, let triple)? = failure(#"[["a","1","2"]]"#) else { return XCTFail("expected wrongShape") }
        XCTAssertTrue(triple.contains("3 element(s)"), triple)
        guard case .wrongShape(_, _, let keyKind)? = failure(#"[[1,"1"]]"#) else { return XCTFail("expected wrongShape") }
        XCTAssertTrue(keyKind.contains("key is a number"), keyKind)
        guard case .wrongShape? = failure(#"{"origins":[{"localStorage":[]}]}"#) else { return XCTFail("an origin without a name") }
        guard case .wrongShape? = failure(#"{"origins":[{"origin":"o://x","localStorage":[{"key":"a"}]}]}"#) else {
            return XCTFail("an item without name/value")
        }
    }

    func testMissingFileAndFolder() {
        XCTAssertThrowsError(try ImportDump(contentsOfFile: "/nonexistent/dump.json")) { error in
            guard case ImportError.dump(.unreadable(_, let reason)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "no such file")
        }
        XCTAssertThrowsError(try ImportDump(contentsOfFile: NSTemporaryDirectory())) { error in
            guard case ImportError.dump(.unreadable(_, let reason)) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("folder"), reason)
        }
    }

    func testDeepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        guard case .notJSON(_, _, let reason, _)? = failure(deep) else { return XCTFail("expected notJSON") }
        XCTAssertTrue(reason.contains("nested more than"), reason)
    }
}
