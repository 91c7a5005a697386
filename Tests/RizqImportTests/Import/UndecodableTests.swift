import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// Keys and values that a browser stored but that are not valid Unicode: never silently
/// replaced; named in the report; skipped unless a plan says otherwise.
final class UndecodableTests: XCTestCase {
    /// UTF-16LE bytes of code units.
    private func utf16(_ units: [UInt16]) -> [UInt8] {
        units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    func testStoredStringsDecodeExactlyOrSayWhyNot() {
        // Latin-1 is ISO-8859-1: 0x80–0x9F are C1 controls, not Windows-1252's € and quotes.
        let latin1 = StoredString(latin1: [0x63, 0x61, 0x66, 0xE9, 0x80, 0x93])
        XCTAssertEqual(latin1.text?.unicodeScalars.map(\.value), [0x63, 0x61, 0x66, 0xE9, 0x80, 0x93])
        XCTAssertEqual(StoredString(latin1: []).text, "")

        let emoji = StoredString(utf16LE: utf16([0xD83D, 0xDE00, 0x0041]))
        XCTAssertEqual(emoji.text, "😀A")
        XCTAssertNil(emoji.problem)

        let lone = StoredString(utf16LE: utf16([0x0061, 0xD83D, 0x0062]))
        XCTAssertNil(lone.text)
        XCTAssertEqual(lone.problem, "a lone UTF-16 surrogate (0xD83D) at code unit 1")
        XCTAssertEqual(lone.displayText, "a\\uD83Db")
        XCTAssertEqual(lone.replacingInvalid, "a\u{FFFD}b")

        let trailing = StoredString(utf16LE: utf16([0xDE00]))
        XCTAssertEqual(trailing.problem, "a lone UTF-16 surrogate (0xDE00) at code unit 0")

        let odd = StoredString(utf16LE: [0x61, 0x00, 0x62])
        XCTAssertNil(odd.text)
        XCTAssertEqual(odd.problem, "odd-length UTF-16 (3 bytes: the last code unit is cut)")
        XCTAssertEqual(odd.displayText, "a\\x62")
        XCTAssertEqual(odd.replacingInvalid, "a\u{FFFD}")

        let unknown = StoredString(undecodable: [0x02, 0x41], problem: "unknown format byte 0x02")
        XCTAssertNil(unknown.text)
        XCTAssertEqual(unknown.displayText, "\\x02\\x41")
        XCTAssertNil(unknown.replacingInvalid, "nothing to replace in an unknown encoding")

        let badUTF8 = StoredString(utf8: [0x61, 0xED, 0xA0, 0xBD, 0x62])
        XCTAssertEqual(badUTF8.problem, "not valid UTF-8 at byte 1")
        XCTAssertEqual(badUTF8.displayText, "a\\xED\\xA0\\xBDb")
    }

    private func dump(_ items: [(StoredString, StoredString)]) -> ImportDump {
        ImportDump(storedItems: items.map { ($0.0, $0.1) }, origin: "https://app.rizq.io", format: .chromiumLevelDB, source: "/profile/Local Storage/leveldb")
    }

    private var mixed: ImportDump {
        dump([
            (StoredString("theme"), StoredString(latin1: Array("dark".utf8))),
            (StoredString("draft"), StoredString(utf16LE: utf16([0x0048, 0x0069, 0xD83D]))),
            (StoredString(utf16LE: utf16([0x006B, 0xDC00])), StoredString("1")),
            (StoredString("blob"), StoredString(undecodable: [0x07, 0x01, 0x02], problem: "unknown format byte 0x07")),
        ])
    }

    func testWithoutAPlanUndecodableKeysAreSkippedAndNamed() throws {
        let root = ImportRoot()
        let dump = mixed
        XCTAssertEqual(dump.keys, ["theme", "draft", "k\\uDC00", "blob"])
        XCTAssertNil(dump.entries[0].undecodable)
        XCTAssertNotNil(dump.entries[1].undecodable)
        let report = try Importer(options: root.options(), secretStore: { InMemorySecretStore(service: $0) }).run(dump)
        XCTAssertEqual(report.items.map(\.action), [.inferred, .skipped, .skipped, .skipped])
        XCTAssertEqual(report.items.map(\.sourceKey), ["theme", "draft", "k\\uDC00", "blob"])
        XCTAssertTrue(report.items[1].note?.contains("the value is not valid Unicode: a lone UTF-16 surrogate (0xD83D) at code unit 2") == true)
        XCTAssertTrue(report.items[2].note?.contains("the key is not valid Unicode") == true)
        XCTAssertTrue(report.items[3].note?.contains("unknown format byte 0x07") == true)
        XCTAssertTrue(report.text.split(separator: "\n").contains { $0.contains("skipped") && $0.hasSuffix(" draft") })
        XCTAssertTrue(report.json.contains("a lone UTF-16 surrogate"))
        // Only the decodable key was written, and nothing with a replacement character.
        let object = try root.fileObject(root.appID)
        XCTAssertEqual(Set(object.keys), ["theme"])
        XCTAssertEqual(root.filesContaining("\u{FFFD}"), [])
    }

    func testAPlanMayReplaceInvalidCodeUnits() throws {
        let root = ImportRoot()
        let plan = ImportPlan(id: "replace-all", undecodable: .replace)
        let report = try Importer(plan: plan, options: root.options(), secretStore: { InMemorySecretStore(service: $0) }).run(mixed)
        XCTAssertEqual(report.items.map(\.action), [.inferred, .inferred, .inferred, .skipped])
        XCTAssertTrue(report.items[1].note?.contains("became U+FFFD, as the plan says") == true)
        XCTAssertTrue(report.items[3].note?.contains("encoding is unknown") == true)
        let store = try root.store(root.appID)
        XCTAssertEqual(store.string(forKey: "draft"), "Hi\u{FFFD}")
        XCTAssertEqual(store.integer(forKey: "k\u{FFFD}"), 1)
    }

    func testAPlanMayKeepTheStoredBytesAsData() throws {
        let root = ImportRoot()
        let plan = ImportPlan(id: "data", rules: [
            .key("draft", to: .suite(key: "draftBytes"), undecodable: .data),
            .key("k\\uDC00", to: .suite(key: "k")),
            .key("blob", to: .suite(), undecodable: .data),
        ])
        let report = try Importer(plan: plan, options: root.options(), secretStore: { InMemorySecretStore(service: $0) }).run(mixed)
        XCTAssertEqual(report.items.map(\.action), [.inferred, .imported, .inferred, .imported])
        let store = try root.store(root.appID)
        XCTAssertEqual(store.data(forKey: "draftBytes"), Data(utf16([0x0048, 0x0069, 0xD83D])))
        XCTAssertEqual(store.data(forKey: "blob"), Data([0x07, 0x01, 0x02]))
        // The rule named a target key for the undecodable key, so its (valid) value went in.
        XCTAssertEqual(store.integer(forKey: "k"), 1)
        XCTAssertEqual(report.items[1].type, "data")
    }

    func testDataNeverGoesToTheSecretServiceAndATypeIsAPlanError() throws {
        let root = ImportRoot()
        let toSecret = ImportPlan(id: "secret", rules: [.key("draft", to: .secret(), undecodable: .data)])
        let report = try Importer(plan: toSecret, options: root.options(dryRun: true), secretStore: { InMemorySecretStore(service: $0) }).run(mixed)
        XCTAssertEqual(report.items[1].action, .skipped)
        XCTAssertTrue(report.items[1].note?.contains("the Secret Service holds text") == true)

        let typed = ImportPlan(id: "typed", rules: [.key("draft", to: .suite(type: .string), undecodable: .data)])
        XCTAssertThrowsError(try Importer(plan: typed, options: root.options(dryRun: true), secretStore: { InMemorySecretStore(service: $0) }).run(mixed)) { error in
            guard case ImportError.conversion(let key, _, let reason)? = error as? ImportError else { return XCTFail("\(error)") }
            XCTAssertEqual(key, "draft")
            XCTAssertTrue(reason.contains("leave the rule's type out"))
        }
    }

    func testAnUndecodableCredentialIsNotWrittenAsData() throws {
        let root = ImportRoot()
        let dump = dump([(StoredString("access_token"), StoredString(utf16LE: utf16([0x0061, 0xD800])))])
        let plan = ImportPlan(id: "all-data", undecodable: .data)
        let report = try Importer(plan: plan, options: root.options(), secretStore: { InMemorySecretStore(service: $0) }).run(dump)
        XCTAssertEqual(report.items.map(\.action), [.skipped])
        XCTAssertTrue(report.items[0].note?.contains("looks like a credential") == true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.suiteFile(root.appID)))
    }

    func testThePlanFieldsRoundTripThroughJSON() throws {
        let json = #"{"id": "p", "undecodable": "replace", "rules": [{"key": "draft\\uD83D", "to": {"key": "draft"}, "undecodable": "data"}]}"#
        let plan = try ImportPlan(json: Data(json.utf8))
        XCTAssertEqual(plan.undecodable, .replace)
        XCTAssertEqual(plan.rules.first?.undecodable, .data)
        XCTAssertEqual(try ImportPlan(json: try plan.jsonData()), plan)
        XCTAssertThrowsError(try ImportPlan(json: Data(#"{"id": "p", "undecodable": "guess"}"#.utf8)))
    }

    func testTheDigestFollowsTheStoredBytes() {
        let first = dump([(StoredString("k"), StoredString(utf16LE: utf16([0xD800])))])
        let same = dump([(StoredString("k"), StoredString(utf16LE: utf16([0xD800])))])
        let other = dump([(StoredString("k"), StoredString(utf16LE: utf16([0xD801])))])
        XCTAssertEqual(first.digest, same.digest)
        XCTAssertNotEqual(first.digest, other.digest, "two different lone surrogates are different inputs")
    }
}
