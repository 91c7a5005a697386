import Foundation
import XCTest
@testable import RizqProfiles

/// Every form of `rizq-prefs import-app --from SOURCE` that issue 14 names, through the built tool
/// in a fake home: each is listed, imported for real (its token to the real Secret Service,
/// nowhere else), and the home is unchanged afterwards. Bad input of every kind exits 2, names
/// the file, and writes nothing.
final class MigrateFromEverySourceTests: XCTestCase {
    /// One `--from` form: the arguments, the origin it holds (the plist's domain), the value of
    /// its `theme`, and whether `--origin` is needed (several origins).
    private struct Source {
        var arguments: [String]
        var origin: String
        var theme: String
        var severalOrigins = false
    }

    /// A fake home with a profile of every kind, each with `theme` and an `auth_token`; returns
    /// the sources and each one's token (by origin).
    private func makeHome(_ home: TemporaryFolder) throws -> (sources: [Source], tokens: [String: String]) {
        var tokens: [String: String] = [:]
        func token(_ origin: String) -> String {
            let value = FakeToken.jwt(subject: origin)
            tokens[origin] = value
            return value
        }
        func leveldb(_ folder: String, origin: String, theme: String) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let database = try LevelDBWriter(folder: folder)
            try database.put(LevelDBWriter.dataKey(origin, LevelDBWriter.chromiumBytes("theme")), LevelDBWriter.chromiumBytes(theme))
            try database.put(LevelDBWriter.dataKey(origin, LevelDBWriter.chromiumBytes("auth_token")), LevelDBWriter.chromiumBytes(token(origin)))
        }
        var sources: [Source] = []

        // Each Chromium-family browser where it keeps its user-data folder.
        let browsers: [(String, String)] = [
            ("chrome", ".config/google-chrome"), ("chromium", ".config/chromium"), ("brave", ".config/BraveSoftware/Brave-Browser"),
            ("edge", ".config/microsoft-edge"), ("vivaldi", ".config/vivaldi"),
        ]
        for (name, relative) in browsers {
            let origin = "https://\(name).example"
            try leveldb(home.path + "/" + relative + "/Default/Local Storage/leveldb", origin: origin, theme: name)
            _ = FileManager.default.createFile(atPath: home.path + "/" + relative + "/Local State", contents: Data(#"{"profile": {"info_cache": {"Default": {"name": "Person 1"}}}}"#.utf8))
            sources.append(Source(arguments: [name], origin: origin, theme: name))
        }
        // A second Chromium profile, by the name the browser shows; its profile folder; its leveldb folder.
        let work = home.path + "/.config/chromium/Profile 1"
        try leveldb(work + "/Local Storage/leveldb", origin: "https://work.example", theme: "work")
        _ = FileManager.default.createFile(atPath: work + "/Preferences", contents: Data("{}".utf8))
        _ = FileManager.default.createFile(
            atPath: home.path + "/.config/chromium/Local State",
            contents: Data(#"{"profile": {"info_cache": {"Default": {"name": "Person 1"}, "Profile 1": {"name": "Work"}}}}"#.utf8))
        sources.append(Source(arguments: ["chromium", "--profile", "Work"], origin: "https://work.example", theme: "work"))
        sources.append(Source(arguments: [home.path + "/.config/chromium", "--profile", "Profile 1"], origin: "https://work.example", theme: "work"))
        sources.append(Source(arguments: [work], origin: "https://work.example", theme: "work"))
        sources.append(Source(arguments: [work + "/Local Storage/leveldb"], origin: "https://work.example", theme: "work"))

        // An Electron app in ~/.config/<App>.
        try leveldb(home.path + "/.config/Notes/Local Storage/leveldb", origin: "app://notes", theme: "electron")
        sources.append(Source(arguments: ["electron:Notes"], origin: "app://notes", theme: "electron"))

        // Firefox: profiles.ini with one profile of two origins; its folder, an origin's folder, its ls/data.sqlite.
        let firefox = home.path + "/.mozilla/firefox"
        let profile = firefox + "/x1y2z3.default-release"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        try "[Profile0]\nName=default-release\nIsRelative=1\nPath=x1y2z3.default-release\nDefault=1\n\n[General]\nStartWithLastProfile=1\nVersion=2\n"
            .write(toFile: firefox + "/profiles.ini", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: profile + "/prefs.js", contents: Data())
        let lsng = try FirefoxFixture.makeLSNG(
            profile + "/storage/default/https+++firefox.example", origin: "https://firefox.example",
            rows: [.text("theme", "firefox"), .text("auth_token", token("https://firefox.example"))])
        try FirefoxFixture.makeLSNG(profile + "/storage/default/https+++second.example", origin: "https://second.example", rows: [.text("theme", "second")])
        sources.append(Source(arguments: ["firefox"], origin: "https://firefox.example", theme: "firefox", severalOrigins: true))
        sources.append(Source(arguments: ["firefox", "--profile", "default-release"], origin: "https://firefox.example", theme: "firefox", severalOrigins: true))
        sources.append(Source(arguments: [profile], origin: "https://firefox.example", theme: "firefox", severalOrigins: true))
        sources.append(Source(arguments: [profile + "/storage/default/https+++firefox.example"], origin: "https://firefox.example", theme: "firefox"))
        sources.append(Source(arguments: [lsng], origin: "https://firefox.example", theme: "firefox"))

        // An old Firefox's webappsstore.sqlite (two origins).
        let webappsstore = home.folder("old-firefox") + "/webappsstore.sqlite"
        try FirefoxFixture.makeWebappsstore(webappsstore, rows: [
            ("", "elpmaxe.dlo.:https:443", "theme", "webappsstore"),
            ("", "elpmaxe.dlo.:https:443", "auth_token", token("https://old.example")),
            ("", "elpmaxe.rehto.:https:443", "theme", "other"),
        ])
        sources.append(Source(arguments: [webappsstore], origin: "https://old.example", theme: "webappsstore", severalOrigins: true))

        // A legacy *.localstorage file (values raw UTF-16LE).
        let legacy = home.folder("legacy/Local Storage") + "/https_legacy.example_0.localstorage"
        func blob(_ text: String) -> String { "X'" + FirefoxFixture.hex(FirefoxFixture.utf16LE(Array(text.utf16))) + "'" }
        try sqlite(legacy, """
            CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL);
            INSERT INTO ItemTable VALUES ('theme', \(blob("legacy")));
            INSERT INTO ItemTable VALUES ('auth_token', \(blob(token("https://legacy.example"))));
            """)
        sources.append(Source(arguments: [legacy], origin: "https://legacy.example", theme: "legacy"))

        // An Apple defaults property list.
        let plist = home.path + "/com.rizq.legacy.plist"
        try PropertyListSerialization.data(fromPropertyList: ["theme": "plist", "auth_token": token("com.rizq.legacy")], format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: plist))
        sources.append(Source(arguments: [plist], origin: "com.rizq.legacy", theme: "plist"))
        return (sources, tokens)
    }

    func testEverySourceFormIsListedAndImportedAndTheHomeIsUnchanged() throws {
        try requireSecretService()
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        let (sources, tokens) = try makeHome(home)
        let before = fingerprint(home.path)
        var services: [String] = []
        defer { for service in services { _ = try? SecretServiceStore(service: service).deleteSecret(forAccount: "auth_token") } }

        for (index, source) in sources.enumerated() {
            let name = source.arguments.joined(separator: " ")
            let from = ["--from"] + source.arguments
            let token = try XCTUnwrap(tokens[source.origin], name)

            let list = try migrate(from + ["--list"], home: home.path, root: root.path)
            XCTAssertEqual(list.status, 0, "\(name): \(list.stderr)")
            let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            XCTAssertTrue(rows.contains { $0.first == source.origin && $0.dropFirst().first == "2" }, "\(name): \(list.stdout)")
            XCTAssertFalse(list.stdout.contains(token) || list.stdout.contains(source.theme + "\n"), "\(name): --list shows no values")

            let app = "com.rizq.from\(index)"
            let service = "org.rizq.tests.from.\(index).\(UUID().uuidString.prefix(8))"
            services.append(service)
            let common = from + ["--app", app, "--service", service]
            if source.severalOrigins {
                let ambiguous = try migrate(common, home: home.path, root: root.path)
                XCTAssertEqual(ambiguous.status, 2, name)
                XCTAssertTrue(ambiguous.stderr.contains("origins (") && ambiguous.stderr.contains(source.origin) && ambiguous.stderr.contains("choose one with --origin"), "\(name): \(ambiguous.stderr)")
            }
            let chosen = common + (source.severalOrigins ? ["--origin", source.origin] : [])
            let dry = try migrate(chosen + ["--dry-run", "--json"], home: home.path, root: root.path)
            XCTAssertEqual(dry.status, 0, "\(name): \(dry.stderr)")
            let real = try migrate(chosen + ["--json"], home: home.path, root: root.path)
            XCTAssertEqual(real.status, 0, "\(name): \(real.stderr)")
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(real.stdout.utf8)) as? [String: Any], name)
            let actions = Dictionary(uniqueKeysWithValues: ((report["items"] as? [[String: Any]]) ?? []).map { ($0["key"] as? String ?? "", $0["action"] as? String ?? "") })
            XCTAssertEqual(actions, ["theme": "inferred", "auth_token": "secret"], name)

            XCTAssertEqual(try SuiteStore(suite: app, appID: app, root: root.path).string(forKey: "theme"), source.theme, name)
            XCTAssertTrue(try SecretServiceStore(service: service).secret(forAccount: "auth_token") == token, "\(name): the token is in the Secret Service")
            XCTAssertEqual(filesContaining(token, under: root.path), [], "\(name): a token reached a suite file")
            for output in [list.stdout, list.stderr, dry.stdout, dry.stderr, real.stdout, real.stderr] {
                XCTAssertFalse(output.contains(token), "\(name): a token was printed")
            }
        }
        XCTAssertEqual(fingerprint(home.path), before, "reading and importing changed a profile")
    }

    /// A folder that is no profile, a truncated `.ldb`, SQLite files of another schema, a plist
    /// that is not a dictionary: exit status 2, the file named, "nothing was imported", nothing
    /// written (no suite, no record, no secret), and no value of the damaged storage printed.
    func testBadInputExitsTwoNamingTheFileAndWritesNothing() throws {
        try requireSecretService()
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        let temporary = TemporaryFolder("rizq-tmp")
        let token = FakeToken.jwt()

        let notProfile = home.folder("Documents")
        _ = FileManager.default.createFile(atPath: notProfile + "/notes.txt", contents: Data("hello".utf8))

        let leveldb = home.folder("Default/Local Storage/leveldb")
        do {
            let database = try LevelDBWriter(folder: leveldb)
            try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("auth_token")), LevelDBWriter.chromiumBytes(token))
            for index in 0..<200 {
                try database.put(LevelDBWriter.dataKey("https://a.example", LevelDBWriter.chromiumBytes("key\(index)")), LevelDBWriter.chromiumBytes(String(repeating: "value \(index) ", count: 20)))
            }
            database.compact()
        }
        let table = leveldb + "/" + (try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: leveldb).first { $0.hasSuffix(".ldb") }))
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: table))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: table))

        let places = home.path + "/places.sqlite"
        try sqlite(places, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('\(token)');")
        let namedLegacy = home.folder("Local Storage") + "/https_a.example_0.localstorage"
        try FileManager.default.copyItem(atPath: places, toPath: namedLegacy)
        let arrayPlist = home.path + "/com.rizq.array.plist"
        try PropertyListSerialization.data(fromPropertyList: ["dark", token], format: .xml, options: 0).write(to: URL(fileURLWithPath: arrayPlist))

        let cases: [(source: String, named: String, says: String)] = [
            (notProfile, notProfile, "is not a browser profile or storage"),
            (leveldb, table, "is damaged"),
            (home.path + "/Default", table, "is damaged"),
            (places, places, "is an SQLite database, but not browser localStorage (it holds the tables moz_places)"),
            (namedLegacy, namedLegacy, "not browser localStorage"),
            (arrayPlist, arrayPlist, "its top level is an array"),
        ]
        let service = "org.rizq.tests.bad.\(UUID().uuidString.prefix(8))"
        let before = fingerprint(home.path)
        for (source, named, says) in cases {
            for extra in [["--list"], ["--dry-run"], []] {
                let arguments = ["--from", source, "--app", "com.rizq.bad", "--service", service] + extra
                let result = try migrate(arguments, home: home.path, root: root.path, temporary: temporary.path)
                let name = arguments.joined(separator: " ")
                XCTAssertEqual(result.status, 2, "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(named), "\(name): the error names the file: \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(says), "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("nothing was imported"), "\(name): \(result.stderr)")
                XCTAssertFalse(result.stderr.contains("rizq-profile-"), "\(name): the private copy is not named")
                XCTAssertFalse(result.stdout.contains(token) || result.stderr.contains(token), "\(name): a value was printed")
                XCTAssertEqual(result.stdout, "", name)
            }
        }
        XCTAssertEqual(fileSnapshot(under: root.path), [:], "nothing was written")
        XCTAssertEqual(try SecretServiceStore(service: service).accounts(), [], "no secret was written")
        XCTAssertEqual(fingerprint(home.path), before, "the bad input was not changed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "the private copies were removed")
    }
}

extension XCTestCase {
    /// `rizq-prefs migrate ARGUMENTS` with `home` as `$HOME` (and its `.config`), suites under
    /// `root`, and no app id from the environment; private copies under `temporary` if given.
    func migrate(_ arguments: [String], home: String, root: String, temporary: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        if let temporary { environment["TMPDIR"] = temporary }
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["RIZQ_PREFS_HOME"] = root
        for name in ["RIZQ_PREFS_APP_ID", "CHROME_CONFIG_HOME", "CHROME_USER_DATA_DIR", "MOZ_LEGACY_HOME"] { environment[name] = nil }
        return try runCommand(builtProduct("rizq-prefs"), ["import-app"] + arguments, environment: environment)
    }
}
