import CSQLite
import Foundation
import XCTest
@_spi(Fuzzing) @testable import RizqProfiles

/// The profile is read from a private copy: its bytes and modification times do not change,
/// also while another process holds the LevelDB open or an SQLite write-ahead log is pending,
/// and the copy (which holds tokens) is private and removed.
final class PrivateCopyTests: XCTestCase {
    /// Runs `body` with TMPDIR pointing at a folder of its own, so that private copies can be seen.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let folder = TemporaryFolder("rizq-tmpdir")
        let previous = ProcessInfo.processInfo.environment["TMPDIR"]
        setenv("TMPDIR", folder.path, 1)
        defer {
            if let previous { setenv("TMPDIR", previous, 1) } else { unsetenv("TMPDIR") }
        }
        try body(folder.path)
    }

    func testALevelDBHeldOpenByAnotherProcessIsReadAndLeftAsItWas() throws {
        let profile = TemporaryFolder()
        let leveldb = profile.folder("Default/Local Storage/leveldb")
        // A second process opens the database, writes (only to its log), and keeps it open: the
        // LOCK is taken, as by a running browser.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: builtProduct("rizq-profiles-test-child"))
        child.arguments = ["hold", leveldb, "https://app.rizq.io", "theme=dark", "café=crème", "greeting=مرحبا"]
        let output = Pipe()
        let input = Pipe()
        child.standardOutput = output
        child.standardInput = input
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        var ready = Data()
        while !String(decoding: ready, as: UTF8.self).contains("ready\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return XCTFail("the child ended before it was ready") }
            ready += chunk
        }

        let before = fingerprint(profile.path)
        XCTAssertNotNil(before["Default/Local Storage/leveldb/LOCK"])
        try withTemporaryDirectory { temporary in
            let storage = try readStorage(profile.path + "/Default")
            let origin = try XCTUnwrap(storage.origins.first)
            XCTAssertEqual(origin.origin, "https://app.rizq.io")
            XCTAssertEqual(origin["theme"], "dark")
            XCTAssertEqual(origin["café"], "crème")
            XCTAssertEqual(origin["greeting"], "مرحبا")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "the private copy was removed")
        }
        XCTAssertEqual(fingerprint(profile.path), before, "a profile file's bytes, modification time or mode changed")
    }

    func testAnSQLiteDatabaseIsCopiedWithItsWriteAheadLog() throws {
        let profile = TemporaryFolder()
        let database = profile.folder("Local Storage") + "/https_app.rizq.io_0.localstorage"
        var handle: OpaquePointer?
        XCTAssertEqual(sqlite3_open(database, &handle), SQLITE_OK)
        defer { sqlite3_close(handle) }
        let setup = """
            PRAGMA encoding = 'UTF-16le'; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
            CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL);
            INSERT INTO ItemTable VALUES ('theme', CAST(X'6400610072006B00' AS BLOB));
            """
        XCTAssertEqual(sqlite3_exec(handle, setup, nil, nil, nil), SQLITE_OK)
        // Still open, never checkpointed: the row is only in the -wal file.
        let files = try FileManager.default.contentsOfDirectory(atPath: profile.path + "/Local Storage")
        XCTAssertTrue(files.contains("https_app.rizq.io_0.localstorage-wal"))

        let before = fingerprint(profile.path)
        let storage = try readStorage(database)
        XCTAssertEqual(storage.origins.first?.origin, "https://app.rizq.io")
        XCTAssertEqual(storage.origins.first?["theme"], "dark")
        XCTAssertEqual(fingerprint(profile.path), before)
    }

    func testThePrivateFolderIsOnlyTheUsersAndIsRemoved() throws {
        let source = TemporaryFolder()
        try withTemporaryDirectory { temporary in
            let copy = try PrivateCopy()
            XCTAssertTrue(copy.folder.hasPrefix(temporary + "/rizq-profile-"))
            var info = stat()
            XCTAssertEqual(stat(copy.folder, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o700)
            _ = FileManager.default.createFile(atPath: source.path + "/CURRENT", contents: Data("MANIFEST-000001\n".utf8))
            let copied = try copy.copyFolder(source.path, as: "leveldb", stable: { _ in true })
            XCTAssertEqual(stat(copied + "/CURRENT", &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600)
            XCTAssertEqual(copy.sourcePath(of: copied + "/CURRENT"), source.path + "/CURRENT")
            XCTAssertEqual(copy.sourceText("Corruption: bad block in \(copied)/000005.ldb"), "Corruption: bad block in \(source.path)/000005.ldb")
            copy.remove()
            XCTAssertFalse(FileManager.default.fileExists(atPath: copy.folder))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
        }
    }

    func testFilesThatChangeDuringTheCopyAreNotTakenAsAConsistentCopy() {
        let before = [PrivateCopy.FileState(name: "CURRENT", size: 16, modified: 1, inode: 7), PrivateCopy.FileState(name: "000003.log", size: 100, modified: 1, inode: 8)]
        var grown = before
        grown[1].size = 180
        grown[1].modified = 2
        XCTAssertTrue(PrivateCopy.unchanged(before, grown, stable: { !$0.hasSuffix(".log") }), "a log may grow")
        var rewritten = before
        rewritten[0].modified = 2
        XCTAssertFalse(PrivateCopy.unchanged(before, rewritten, stable: { !$0.hasSuffix(".log") }))
        var replaced = before
        replaced[1].inode = 9
        XCTAssertFalse(PrivateCopy.unchanged(before, replaced, stable: { !$0.hasSuffix(".log") }))
        XCTAssertFalse(PrivateCopy.unchanged(before, [before[0]], stable: { _ in true }))
    }
}
