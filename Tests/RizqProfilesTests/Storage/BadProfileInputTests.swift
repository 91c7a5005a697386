import Foundation
import XCTest
@testable import RizqProfiles

/// Bad input gives a clear error naming the file, and nothing is read in part.
final class BadProfileInputTests: XCTestCase {
    func testAFolderThatIsNoProfile() throws {
        let folder = TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.path + "/notes.txt", contents: Data("hello".utf8))
        XCTAssertThrowsError(try readStorage(folder.path)) { error in
            guard case ProfileError.notAProfile(let path, let reason)? = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, folder.path)
            XCTAssertTrue(reason.contains("found no 'Local Storage/leveldb'"))
            XCTAssertTrue("\(error)".contains("nothing was imported: give a profile folder"))
        }
        XCTAssertThrowsError(try readStorage(folder.path + "/notes.txt")) { error in
            guard case ProfileError.notAProfile(let path, _)? = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, folder.path + "/notes.txt")
        }
        XCTAssertThrowsError(try readStorage(folder.path + "/missing")) { error in
            XCTAssertEqual(error as? ProfileError, .notFound(path: folder.path + "/missing"))
        }
        // A browser profile that never used localStorage says so.
        _ = FileManager.default.createFile(atPath: folder.folder("Default") + "/Preferences", contents: Data("{}".utf8))
        XCTAssertThrowsError(try readStorage(folder.path + "/Default")) { error in
            XCTAssertTrue("\(error)".contains("holds no localStorage"), "\(error)")
        }
    }

    func testATruncatedTableIsNamed() throws {
        let folder = TemporaryFolder()
        let leveldb = folder.folder("Default/Local Storage/leveldb")
        do {
            let database = try LevelDBWriter(folder: leveldb)
            for index in 0..<200 {
                try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("key\(index)")), LevelDBWriter.chromiumBytes(String(repeating: "value \(index) ", count: 20)))
            }
            database.compact()
        }
        // The compaction wrote the records to a table that the MANIFEST lists; cut it in half.
        let tables = try FileManager.default.contentsOfDirectory(atPath: leveldb).filter { $0.hasSuffix(".ldb") }
        XCTAssertEqual(tables.count, 1)
        let table = leveldb + "/" + (tables.first ?? "")
        XCTAssertEqual(try readStorage(leveldb).origins.first?.keyCount, 200, "the intact table reads")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: table))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: table))
        XCTAssertThrowsError(try readStorage(leveldb)) { error in
            guard case ProfileError.damaged(let path, let reason)? = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, table, "the message names the damaged table in the profile: \(reason)")
            XCTAssertTrue("\(error)".contains("nothing was imported"))
            XCTAssertFalse(reason.contains("rizq-profile-"), "the private copy's path is not shown")
        }
    }

    func testAFileTheUserMayNotReadIsNamed() throws {
        let folder = TemporaryFolder()
        let path = folder.folder("leveldb")
        do {
            let database = try LevelDBWriter(folder: path)
            try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("k")), LevelDBWriter.chromiumBytes("v"))
        }
        let log = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: path).first { $0.hasSuffix(".log") })
        chmod(folder.path, 0o755)
        chmod(path, 0o755)
        chmod(path + "/" + log, 0)
        guard getuid() == 0 else {
            XCTAssertThrowsError(try readStorage(path)) { error in
                XCTAssertEqual(error as? ProfileError, .unreadable(path: path + "/" + log, reason: "permission denied"))
            }
            return
        }
        // root reads every file whatever its mode: read as the unprivileged user `nobody`, with a
        // copy of the tool that `nobody` may run wherever the checkout is — and of
        // rizq-prefs-secrets beside it, which rizq-prefs runs for `import-app`.
        let tool = folder.path + "/rizq-prefs"
        for product in ["rizq-prefs", "rizq-prefs-secrets"] {
            try FileManager.default.copyItem(atPath: builtProduct(product), toPath: folder.path + "/" + product)
            chmod(folder.path + "/" + product, 0o755)
        }
        let result = try runCommand("/usr/sbin/runuser", ["-u", "nobody", "--", tool, "import-app", "--from", path, "--list"], environment: ["HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot read \(path)/\(log): permission denied"), result.stderr)
    }

    func testAnSQLiteFileOfAnotherSchema() throws {
        let folder = TemporaryFolder()
        let other = folder.path + "/places.sqlite"
        try sqlite(other, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('https://example.com');")
        XCTAssertThrowsError(try readStorage(other)) { error in
            XCTAssertEqual(error as? ProfileError, .wrongSchema(path: other, tables: ["moz_places"]))
            XCTAssertTrue("\(error)".contains("not browser localStorage"))
        }
        // The same with a .localstorage name: the WebKit reader checks its table too.
        let named = folder.path + "/https_example.com_0.localstorage"
        try FileManager.default.copyItem(atPath: other, toPath: named)
        XCTAssertThrowsError(try readStorage(named)) { error in
            XCTAssertEqual(error as? ProfileError, .wrongSchema(path: named, tables: ["moz_places"]))
        }
        // Not a database at all.
        let text = folder.path + "/notes.sqlite"
        _ = FileManager.default.createFile(atPath: text, contents: Data(repeating: 0x41, count: 4096))
        XCTAssertThrowsError(try readStorage(text)) { error in
            guard case ProfileError.damaged(let path, _)? = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, text)
        }
    }

    func testAFileOfALevelDBFolderMeansTheFolder() throws {
        let folder = TemporaryFolder()
        let path = folder.folder("leveldb")
        do {
            let database = try LevelDBWriter(folder: path)
            try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("k")), LevelDBWriter.chromiumBytes("v"))
        }
        let location = try ProfileLocator().locate(.path(path + "/CURRENT"))
        XCTAssertEqual(location, ProfileLocation(kind: .chromiumLevelDB, path: path, label: "LevelDB folder"))
        // Once its only key is removed, the storage holds nothing to import, and says so.
        do {
            let database = try LevelDBWriter(folder: path)
            try database.delete(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("k")))
        }
        let empty = try ProfileStorage.read(location)
        XCTAssertEqual(empty.origins, [])
        XCTAssertThrowsError(try empty.dump(origin: nil)) { XCTAssertEqual($0 as? ProfileError, .noLocalStorage(source: path)) }
        XCTAssertThrowsError(try empty.dump(origin: "https://a.example")) {
            XCTAssertEqual($0 as? ProfileError, .originNotFound(source: path, origin: "https://a.example", origins: []))
        }
    }
}
