import CSQLite
import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// Firefox storage made with the real SQLite and snappy libraries as Firefox makes it, for what
/// the corpus lacks: UTF-16 values, older schemas, profiles with several storages, bad input.
final class FirefoxStorageTests: XCTestCase {
    private let app = "https://app.rizq.io"

    func testValuesDecodeByConversionAndCompressionType() throws {
        let profile = TemporaryFolder("rizq-firefox")
        let long = String(repeating: "مرحبا café 😀 ", count: 40)
        try FirefoxFixture.makeLSNG(profile.path + "/storage/default/https+++app.rizq.io", origin: app, rows: [
            .text("ascii", "plain"),
            .text("long", long),
            .text("empty", ""),
            // A lone surrogate: Firefox keeps the code units (conversion_type 0), compressed or not.
            .units("lone", [0x61, 0xD83D, 0x62]),
            .units("lone-compressed", Array(repeating: [0x61, 0xD83D], count: 40).flatMap { $0 }, compress: true),
            // Valid UTF-16 stored as code units (Firefox writes UTF-8 for those, but reads both).
            .units("units", Array("é😀".utf16)),
        ])
        let origin = try XCTUnwrap(try readStorage(profile.path).origins.first)
        XCTAssertEqual(origin.origin, app)
        XCTAssertEqual(origin["ascii"], "plain")
        XCTAssertTrue(origin["long"] == long)
        XCTAssertEqual(origin["empty"], "")
        XCTAssertEqual(origin["units"], "é😀")
        let lone = try XCTUnwrap(origin.items.first { $0.key.text == "lone" }?.value)
        XCTAssertNil(lone.text, "never replaced")
        XCTAssertEqual(lone.encoding, .utf16LE)
        XCTAssertEqual(lone.problem, "a lone UTF-16 surrogate (0xD83D) at code unit 1")
        XCTAssertEqual(lone.displayText, "a\\uD83Db")
        let compressed = try XCTUnwrap(origin.items.first { $0.key.text == "lone-compressed" }?.value)
        XCTAssertEqual(compressed.bytes.count, 160, "decompressed first")
        XCTAssertNil(compressed.text)
        XCTAssertEqual(origin.warnings, [])
        XCTAssertEqual(origin.undecodableCount, 2)
    }

    func testUnknownTypesAndBadSnappyAreKeptAndNamed() throws {
        let profile = TemporaryFolder("rizq-firefox")
        var unknownConversion = FirefoxFixture.Row.text("conversion", "x")
        unknownConversion.conversion = 7
        var unknownCompression = FirefoxFixture.Row.text("compression", "y")
        unknownCompression.compression = 2
        let badSnappy = FirefoxFixture.Row(key: "snappy", value: .blob([0x05, 0xFF, 0xFF]), conversion: 1, compression: 1, utf16Length: 3)
        var wrongLength = FirefoxFixture.Row.text("length", "four")
        wrongLength.utf16Length = 9
        let path = try FirefoxFixture.makeLSNG(profile.path, origin: app, rows: [unknownConversion, unknownCompression, badSnappy, wrongLength])
        let origin = try XCTUnwrap(try readStorage(path).origins.first)
        func value(_ key: String) -> StoredString? { origin.items.first { $0.key.text == key }?.value }
        XCTAssertEqual(value("conversion")?.problem, "unknown conversion_type 7 (Firefox writes 0 for UTF-16 and 1 for UTF-8)")
        XCTAssertEqual(value("conversion")?.bytes, Array("x".utf8))
        XCTAssertEqual(value("compression")?.problem, "unknown compression_type 2 (Firefox writes 0 and 1)")
        XCTAssertEqual(value("snappy")?.problem, "compression_type 1, but the value is not snappy data Firefox can read (not valid snappy-compressed data)")
        XCTAssertEqual(value("snappy")?.bytes, [0x05, 0xFF, 0xFF], "the stored bytes are kept")
        XCTAssertEqual(origin["length"], "four")
        XCTAssertEqual(origin.warnings, ["the value of length is not as long as Firefox recorded (utf16_length); it is read as stored"])

        // Without a plan the importer skips them and says why, naming the key.
        let report = try Importer(options: .init(dryRun: true, appID: "com.rizq.tests", root: TemporaryFolder().path), secretStore: { InMemorySecretStore(service: $0) })
            .run(try readStorage(path).dump(origin: nil))
        let snappy = try XCTUnwrap(report.items.first { $0.sourceKey == "snappy" })
        XCTAssertEqual(snappy.action, .skipped)
        XCTAssertTrue(snappy.note?.contains("not snappy data") == true, snappy.note ?? "")
        XCTAssertEqual(report.items.first { $0.sourceKey == "length" }?.action, .inferred)
    }

    func testOlderSchemaWithACompressedColumn() throws {
        let folder = TemporaryFolder("rizq-firefox")
        let path = folder.folder("https+++old.example/ls") + "/data.sqlite"
        let compressed = FirefoxFixture.snappy(Array(String(repeating: "settings ", count: 10).utf8))
        try sqlite(path, """
            PRAGMA user_version = 64;
            CREATE TABLE database (origin TEXT NOT NULL, usage INTEGER NOT NULL DEFAULT 0, last_vacuum_time INTEGER NOT NULL DEFAULT 0, last_analyze_time INTEGER NOT NULL DEFAULT 0, last_vacuum_size INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE data (key TEXT PRIMARY KEY, value TEXT NOT NULL, utf16Length INTEGER NOT NULL DEFAULT 0, compressed INTEGER NOT NULL DEFAULT 0, lastAccessTime INTEGER NOT NULL DEFAULT 0);
            INSERT INTO database (origin) VALUES ('https://old.example');
            INSERT INTO data (key, value, utf16Length, compressed) VALUES ('plain', 'crème', 5, 0);
            INSERT INTO data (key, value, utf16Length, compressed) VALUES ('packed', X'\(FirefoxFixture.hex(compressed))', 90, 1);
            """)
        let storage = try readStorage(folder.path + "/https+++old.example")
        XCTAssertEqual(storage.kind, .firefoxLSNG)
        let origin = try XCTUnwrap(storage.origins.first)
        XCTAssertEqual(origin.origin, "https://old.example")
        XCTAssertEqual(origin["plain"], "crème")
        XCTAssertEqual(origin["packed"], String(repeating: "settings ", count: 10))
        XCTAssertEqual(origin.warnings, [])
    }

    func testAnOriginNamedOnlyByItsMetadata() throws {
        let profile = TemporaryFolder("rizq-firefox")
        let corpusFolder = try requireCorpus() + "/firefox-lsng/gitmarsh/https+++accounts.google.com^partitionKey=%28https%2Cspokeo.com%29"
        let folder = profile.path + "/storage/default/https+++accounts.google.com^partitionKey=%28https%2Cspokeo.com%29"
        try FirefoxFixture.makeLSNG(folder, origin: nil, rows: [.text("k", "v")])
        try FileManager.default.copyItem(atPath: corpusFolder + "/.metadata-v2", toPath: folder + "/.metadata-v2")
        let origin = try XCTUnwrap(try readStorage(profile.path).origins.first)
        XCTAssertEqual(origin.origin, "https://accounts.google.com^partitionKey=%28https%2Cspokeo.com%29")
        XCTAssertEqual(origin.warnings, ["its database table names no origin; the origin is the one in .metadata-v2"])
        // Without the metadata too, the folder's name stands in, and says so.
        try FileManager.default.removeItem(atPath: folder + "/.metadata-v2")
        let named = try XCTUnwrap(try readStorage(profile.path).origins.first)
        XCTAssertEqual(named.origin, "https+++accounts.google.com^partitionKey=%28https%2Cspokeo.com%29")
        XCTAssertEqual(named.warnings, ["neither its database table nor .metadata-v2 names the origin; it is called by its folder name"])
    }

    /// Which storage of a profile is read: LSNG and its archive, or webappsstore.sqlite.
    func testAProfileIsReadAsFirefoxReadsIt() throws {
        let profile = TemporaryFolder("rizq-firefox")
        try FirefoxFixture.makeLSNG(profile.path + "/storage/default/https+++app.rizq.io", origin: app, rows: [.text("theme", "dark")])
        // The legacy database: a stale copy of the app's storage, and an origin never moved.
        try FirefoxFixture.makeWebappsstore(profile.path + "/webappsstore.sqlite", rows: [
            ("", "oi.qzir.ppa.:https:443", "theme", "light"),
            ("", "oi.qzir.ppa.:https:443", "stale", "yes"),
            ("", "elpmaxe.dlo.:http:80", "kept", "1"),
            ("^userContextId=2", "elpmaxe.dlo.:http:80", "work", "container"),
        ])
        // LSNG never ran (no archive): webappsstore.sqlite is read, and LSNG wins for its origin.
        var storage = try readStorage(profile.path)
        XCTAssertEqual(storage.origins.map(\.origin), ["http://old.example", "http://old.example^userContextId=2", app])
        XCTAssertEqual(storage.origins.first { $0.origin == app }?.items.map(\.key.displayText), ["theme"])
        XCTAssertEqual(storage.origins.first { $0.origin == app }?["theme"], "dark")
        XCTAssertEqual(storage.origins.first { $0.origin == "http://old.example^userContextId=2" }?["work"], "container")

        // LSNG has run: its archive holds what was not moved yet; webappsstore.sqlite is stale.
        try FirefoxFixture.makeWebappsstore(profile.path + "/storage/ls-archive.sqlite", rows: [("", "gro.devihcra.:https:443", "a", "b")])
        storage = try readStorage(profile.path)
        XCTAssertEqual(storage.origins.map(\.origin), [app, "https://archived.org"])

        // prefs.js turns LSNG off: Firefox reads webappsstore.sqlite only.
        try "user_pref(\"browser.startup.page\", 3);\nuser_pref(\"dom.storage.next_gen\", false);\n".write(toFile: profile.path + "/prefs.js", atomically: true, encoding: .utf8)
        storage = try readStorage(profile.path)
        XCTAssertEqual(storage.origins.map(\.origin), ["http://old.example", "http://old.example^userContextId=2", "https://app.rizq.io"])
        XCTAssertEqual(storage.origins.first { $0.origin == app }?["theme"], "light")
        XCTAssertEqual(storage.origins.first { $0.origin == app }?["stale"], "yes")
        XCTAssertEqual(storage.kind, .firefoxProfile)
    }

    /// Firefox keeps webappsstore.sqlite in WAL mode: a row that is only in the `-wal` of a
    /// database still held open is read, from the copy, and the profile does not change.
    func testWebappsstoreHeldOpenInWALModeIsReadWithItsLog() throws {
        let profile = TemporaryFolder("rizq-firefox")
        let path = profile.path + "/webappsstore.sqlite"
        var handle: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &handle), SQLITE_OK)
        defer { sqlite3_close(handle) }
        let setup = """
            PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA user_version = 2;
            CREATE TABLE webappsstore2 (originAttributes TEXT, originKey TEXT, scope TEXT, key TEXT, value TEXT);
            INSERT INTO webappsstore2 VALUES ('', 'oi.qzir.ppa.:https:443', ':oi.qzir.ppa.:https:443', 'theme', 'dark');
            """
        XCTAssertEqual(sqlite3_exec(handle, setup, nil, nil, nil), SQLITE_OK)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "the row is only in the log")
        let before = fingerprint(profile.path)
        let storage = try readStorage(profile.path)
        XCTAssertEqual(storage.origins.map(\.origin), [app])
        XCTAssertEqual(storage.origins.first?["theme"], "dark")
        XCTAssertEqual(fingerprint(profile.path), before, "reading changed the profile")
    }

    func testSchema0ScopesAndOriginKeysOfEveryShape() throws {
        let folder = TemporaryFolder("rizq-firefox")
        let path = folder.path + "/webappsstore.sqlite"
        try sqlite(path, """
            CREATE TABLE webappsstore2 (scope TEXT, key TEXT, value TEXT, secure INTEGER, owner TEXT);
            INSERT INTO webappsstore2 VALUES ('moc.elpmaxe.:http:80', 'a', '1', 0, '');
            INSERT INTO webappsstore2 VALUES ('0:f:moc.elpmaxe.:http:80', 'b', '2', 0, '');
            INSERT INTO webappsstore2 VALUES ('1001:t:moc.elpmaxe.:http:80', 'c', '3', 0, '');
            INSERT INTO webappsstore2 VALUES ('1001:f:^appId=1001&userContextId=4:moc.elpmaxe.:https:8443', 'd', '4', 0, '');
            INSERT INTO webappsstore2 VALUES ('nonsense', 'e', '5', 0, '');
            """)
        let storage = try readStorage(path)
        XCTAssertEqual(storage.kind, .firefoxWebappsstore)
        XCTAssertEqual(storage.origins.map(\.origin), ["http://example.com", "http://example.com^appId=1001&inBrowser=1", "https://example.com:8443^appId=1001&userContextId=4", "nonsense"])
        XCTAssertEqual(storage.origins.first?.items.map(\.key.displayText), ["a", "b"])
        XCTAssertEqual(storage.origins.last?.warnings, ["the origin key 'nonsense' is not one Firefox writes; the origin is called by it"])
    }

    func testOriginKeys() {
        let cases: [(String, String, String?)] = [
            ("moc.elpmaxe.www.:https:443", "", "https://www.example.com"),
            ("tsohlacol.:http:8080", "", "http://localhost:8080"),
            ("1.0.0.721.:http:80", "", "http://127.0.0.1"),
            ("1::.:http:8080", "", "http://[::1]:8080"),
            ("/sgnittes/resu/emoh/.:file", "", "file:///home/user/settings/"),
            ("moc.elpmaxe.:wss:443", "", "wss://example.com"),
            ("moc.elpmaxe.:ftp:21", "", "ftp://example.com"),
            ("moc.elpmaxe.:https:443", "^userContextId=2", "https://example.com^userContextId=2"),
            ("moc.elpmaxe.:https:443", "^partitionKey=%28https%2Cb.com%29", "https://example.com^partitionKey=%28https%2Cb.com%29"),
            ("6f5e4d3c-2b1a.:moz-extension", "", "moz-extension://a1b2-c3d4e5f6"),
            ("moc.elpmaxe.:", "", nil),
            ("moc.elpmaxe:https:443", "", nil),
            ("moc.elpmaxe.:https:99999", "", nil),
            ("", "", nil),
        ]
        for (key, attributes, origin) in cases {
            XCTAssertEqual(FirefoxOriginKey.origin(originKey: key, attributes: attributes), origin, key)
        }
    }

    // MARK: Bad input

    func testAnSQLiteFileOfAnotherSchemaIsNamedAndNothingIsWritten() throws {
        let folder = TemporaryFolder("rizq-firefox")
        // A Firefox database that is not localStorage, named like one.
        let cookies = folder.folder("https+++a.example/ls") + "/data.sqlite"
        try sqlite(cookies, "CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, name TEXT, value TEXT);")
        XCTAssertThrowsError(try readStorage(folder.path + "/https+++a.example")) { error in
            XCTAssertEqual(error as? ProfileError, .wrongSchema(path: cookies, tables: ["moz_cookies"]))
            XCTAssertTrue("\(error)".contains("nothing was imported"), "\(error)")
        }
        // `data` and `database` tables of another shape.
        let other = folder.path + "/other.sqlite"
        try sqlite(other, "CREATE TABLE data (id INTEGER, payload BLOB); CREATE TABLE database (origin TEXT);")
        XCTAssertThrowsError(try readStorage(other)) { error in
            XCTAssertEqual(error as? ProfileError, .wrongSchema(path: other, tables: ["data", "database"]))
        }
        let webapps = folder.path + "/webappsstore.sqlite"
        try sqlite(webapps, "CREATE TABLE webappsstore2 (id INTEGER);")
        XCTAssertThrowsError(try readStorage(webapps)) { error in
            XCTAssertEqual(error as? ProfileError, .wrongSchema(path: webapps, tables: ["webappsstore2"]))
        }

        // Through the command line: a clear error naming the file, exit status 2, nothing written.
        let root = TemporaryFolder("rizq-root")
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root.path
        let result = try runCommand(builtProduct("rizq-prefs"), ["import-app", "--from", cookies, "--app", "com.rizq.tests"], environment: environment)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("\(cookies) is an SQLite database, but not browser localStorage (it holds the tables moz_cookies)"), result.stderr)
        XCTAssertEqual(fileSnapshot(under: root.path), [:])
    }

    func testATruncatedDatabaseIsNamedAndNothingIsWritten() throws {
        let profile = TemporaryFolder("rizq-firefox")
        let rows = (0..<300).map { FirefoxFixture.Row.text("key\($0)", String(repeating: "value \($0) ", count: 30)) }
        let path = try FirefoxFixture.makeLSNG(profile.path + "/storage/default/https+++app.rizq.io", origin: app, rows: rows)
        XCTAssertEqual(try readStorage(profile.path).origins.first?.keyCount, 300, "the intact database reads")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertGreaterThan(bytes.count, 8192)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try readStorage(profile.path)) { error in
            guard case ProfileError.damaged(let damaged, let reason)? = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(damaged, path, reason)
            XCTAssertFalse(reason.contains("rizq-profile-"), "the private copy's path is not shown")
            XCTAssertTrue("\(error)".contains("nothing was imported"))
        }
        let root = TemporaryFolder("rizq-root")
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root.path
        let result = try runCommand(builtProduct("rizq-prefs"), ["import-app", "--from", profile.path, "--app", "com.rizq.tests"], environment: environment)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("\(path) is damaged"), result.stderr)
        XCTAssertEqual(fileSnapshot(under: root.path), [:])
    }

    func testAFolderWithoutLocalStorageSaysSo() throws {
        let profile = TemporaryFolder("rizq-firefox")
        _ = FileManager.default.createFile(atPath: profile.path + "/prefs.js", contents: Data())
        let storage = try readStorage(profile.path)
        XCTAssertEqual(storage.kind, .firefoxProfile)
        XCTAssertThrowsError(try storage.dump(origin: nil)) { error in
            XCTAssertEqual(error as? ProfileError, .noLocalStorage(source: profile.path))
        }
        // An origin whose every key was removed is no origin.
        try FirefoxFixture.makeLSNG(profile.path + "/storage/default/https+++app.rizq.io", origin: app, rows: [])
        XCTAssertEqual(try readStorage(profile.path).origins, [])
        XCTAssertEqual(try readStorage(profile.path + "/storage/default/https+++app.rizq.io").origins, [])
    }
}
