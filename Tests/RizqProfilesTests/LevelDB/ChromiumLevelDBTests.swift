import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// LevelDB folders written here with the library, in Chromium's layout, for what the corpus
/// lacks: every format byte, strings that are not valid Unicode, deletions after compaction.
final class ChromiumLevelDBTests: XCTestCase {
    func testFormatBytesDecodeExactly() throws {
        let folder = TemporaryFolder()
        let path = folder.folder("Default/Local Storage/leveldb")
        do {
            let database = try LevelDBWriter(folder: path)
            let origin = "https://app.rizq.io"
            func put(_ key: [UInt8], _ value: [UInt8]) throws { try database.put(LevelDBWriter.dataKey(origin, key), value) }
            try database.put(Array("VERSION".utf8), Array("1".utf8))
            try database.put(Array("META:https://app.rizq.io".utf8), [0x08, 0x01])
            try database.put(Array("METAACCESS:https://app.rizq.io".utf8), [0x08, 0x02])
            try put(LevelDBWriter.chromiumBytes("ascii"), LevelDBWriter.chromiumBytes("plain"))
            // ISO-8859-1: 0xE9 is é; 0x80 is U+0080 (Windows-1252 would make it €).
            try put(LevelDBWriter.chromiumBytes("latin1"), [0x01, 0x63, 0x61, 0x66, 0xE9, 0x80])
            try put(LevelDBWriter.chromiumBytes("arabic"), LevelDBWriter.chromiumBytes("مرحبا"))
            try put(LevelDBWriter.chromiumBytes("emoji"), LevelDBWriter.chromiumBytes("😀👍🏽"))
            try put(LevelDBWriter.chromiumBytes("empty"), [0x01])
            try put(LevelDBWriter.chromiumBytes("no-bytes"), [])
            try put(LevelDBWriter.chromiumBytes("lone"), LevelDBWriter.utf16Bytes([0x0061, 0xD83D]))
            try put(LevelDBWriter.chromiumBytes("odd"), [0x00, 0x61, 0x00, 0x62])
            try put(LevelDBWriter.chromiumBytes("format"), [0x02, 0x61])
            try put(LevelDBWriter.utf16Bytes([0x006B, 0xDC00]), LevelDBWriter.chromiumBytes("1"))
            try put(LevelDBWriter.chromiumBytes("مفتاح"), LevelDBWriter.chromiumBytes("utf16 key"))
            try put(LevelDBWriter.chromiumBytes("deleted"), LevelDBWriter.chromiumBytes("gone"))
            database.compact()
            try database.delete(LevelDBWriter.dataKey(origin, LevelDBWriter.chromiumBytes("deleted")))
            try database.put(LevelDBWriter.dataKey("file://", LevelDBWriter.chromiumBytes("local")), LevelDBWriter.chromiumBytes("yes"))
        }
        let storage = try readStorage(folder.path + "/Default")
        XCTAssertEqual(storage.origins.map(\.origin), ["file://", "https://app.rizq.io"])
        let app = try XCTUnwrap(storage.origins.last)
        XCTAssertEqual(app["ascii"], "plain")
        XCTAssertEqual(app["latin1"]?.unicodeScalars.map(\.value), [0x63, 0x61, 0x66, 0xE9, 0x80])
        XCTAssertEqual(app["arabic"], "مرحبا")
        XCTAssertEqual(app["emoji"], "😀👍🏽")
        XCTAssertEqual(app["empty"], "")
        XCTAssertEqual(app["no-bytes"], "", "no bytes at all read as Blink reads them: the empty string")
        XCTAssertEqual(app["مفتاح"], "utf16 key")
        XCTAssertNil(app["deleted"], "deleted after compaction into a table")
        func item(_ key: String) -> StoredItem? { app.items.first { $0.key.text == key } }
        XCTAssertEqual(item("lone")?.value.problem, "a lone UTF-16 surrogate (0xD83D) at code unit 1")
        XCTAssertEqual(item("odd")?.value.problem, "odd-length UTF-16 (3 bytes: the last code unit is cut)")
        XCTAssertEqual(item("format")?.value.problem, "unknown format byte 0x02 (Chromium writes 0x00 for UTF-16 and 0x01 for Latin-1)")
        XCTAssertEqual(app.items.first { !$0.key.isText }?.key.displayText, "k\\uDC00")
        XCTAssertEqual(app.keyCount, 11)
        XCTAssertEqual(app.undecodableCount, 4)

        // Imported without a plan: the four are skipped and named, the rest imported.
        let report = try Importer(
            options: .init(dryRun: true, appID: "com.rizq.tests", root: TemporaryFolder().path), secretStore: { InMemorySecretStore(service: $0) }
        ).run(try storage.dump(origin: "https://app.rizq.io"))
        let skipped = report.items(.skipped).map(\.sourceKey).sorted()
        XCTAssertEqual(skipped, ["format", "k\\uDC00", "lone", "odd"])
        XCTAssertTrue(report.items(.skipped).allSatisfy { $0.note?.contains("not valid Unicode") == true })
    }

    func testTheSameUnchangedStorageHasTheSameDigest() throws {
        let folder = TemporaryFolder()
        let path = folder.folder("leveldb")
        do {
            let database = try LevelDBWriter(folder: path)
            try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("k")), LevelDBWriter.chromiumBytes("v"))
        }
        let first = try readStorage(path).dump(origin: nil)
        let second = try readStorage(path).dump(origin: nil)
        XCTAssertEqual(first.digest, second.digest, "a second import of the same storage is recognised")
        XCTAssertEqual(first.format, .chromiumLevelDB)
        XCTAssertEqual(first.source, path)
        do {
            let database = try LevelDBWriter(folder: path)
            try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("k")), LevelDBWriter.chromiumBytes("w"))
        }
        XCTAssertNotEqual(try readStorage(path).dump(origin: nil).digest, first.digest)
    }
}
