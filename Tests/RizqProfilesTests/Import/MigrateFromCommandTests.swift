import Foundation
import XCTest
@testable import RizqProfiles

/// `rizq-prefs import-app --from`, run as the built binary with a temporary home and root.
final class MigrateFromCommandTests: XCTestCase {

    /// A Chromium user-data folder in `home` with two origins in its Default profile.
    private func makeChromium(_ home: TemporaryFolder, token: String) throws -> String {
        let leveldb = home.folder(".config/chromium/Default/Local Storage/leveldb")
        _ = FileManager.default.createFile(atPath: home.path + "/.config/chromium/Local State", contents: Data(#"{"profile": {"info_cache": {"Default": {"name": "Person 1"}}}}"#.utf8))
        let database = try LevelDBWriter(folder: leveldb)
        let app = "https://app.rizq.io"
        try database.put(LevelDBWriter.dataKey(app, LevelDBWriter.chromiumBytes("theme")), LevelDBWriter.chromiumBytes("dark"))
        try database.put(LevelDBWriter.dataKey(app, LevelDBWriter.chromiumBytes("goal")), LevelDBWriter.chromiumBytes("42"))
        try database.put(LevelDBWriter.dataKey(app, LevelDBWriter.chromiumBytes("café")), LevelDBWriter.chromiumBytes("crème"))
        try database.put(LevelDBWriter.dataKey(app, LevelDBWriter.chromiumBytes("auth_token")), LevelDBWriter.chromiumBytes(token))
        try database.put(LevelDBWriter.dataKey(app, LevelDBWriter.chromiumBytes("draft")), LevelDBWriter.utf16Bytes([0x0048, 0xD83D]))
        try database.put(LevelDBWriter.dataKey("https://other.example", LevelDBWriter.chromiumBytes("x")), LevelDBWriter.chromiumBytes("1"))
        return leveldb
    }

    func testListDryRunAndImportFromAChromiumProfile() throws {
        try requireSecretService()
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        let token = FakeToken.jwt()
        let leveldb = try makeChromium(home, token: token)
        let before = fingerprint(home.path)

        let list = try migrate(["--from", "chromium", "--list"], home: home.path, root: root.path)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.hasPrefix("Chromium profile 'Default' (Person 1): \(leveldb) (chromium-leveldb)\n"), list.stdout)
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertTrue(rows.contains(["https://app.rizq.io", "5", String(5 + 4 + 4 + 2 + 4 + 5 + 10 + token.utf8.count + 5 + 4), "1"]), list.stdout)
        XCTAssertTrue(rows.contains(["https://other.example", "1", "2"]), list.stdout)
        XCTAssertFalse(list.stdout.contains(token) || list.stdout.contains("dark"), "--list shows no values")
        let json = try migrate(["--from", "chromium", "--list", "--json"], home: home.path, root: root.path)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["origins"] as? [[String: Any]])?.map { $0["origin"] as? String }, ["https://app.rizq.io", "https://other.example"])

        // Several origins and no --origin: the error lists them; nothing is written.
        let ambiguous = try migrate(["--from", "chromium", "--app", "com.rizq.cli"], home: home.path, root: root.path)
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssertTrue(ambiguous.stderr.contains("holds localStorage for 2 origins (https://app.rizq.io, https://other.example); choose one with --origin"), ambiguous.stderr)
        XCTAssertEqual(fileSnapshot(under: root.path), [:])

        let service = "org.rizq.tests.cli.\(UUID().uuidString.prefix(8))"
        let secrets = SecretServiceStore(service: service)
        defer { _ = try? secrets.deleteSecret(forAccount: "auth_token") }
        let common = ["--from", home.path + "/.config/chromium", "--profile", "Person 1", "--origin", "https://app.rizq.io", "--app", "com.rizq.cli", "--service", service]
        let dry = try migrate(common + ["--dry-run", "--json"], home: home.path, root: root.path)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(fileSnapshot(under: root.path), [:], "a dry run writes nothing")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["format"] as? String, "chromium-leveldb")
        XCTAssertEqual(report["origin"] as? String, "https://app.rizq.io")
        XCTAssertEqual(report["source"] as? String, leveldb)
        let actions = Dictionary(uniqueKeysWithValues: ((report["items"] as? [[String: Any]]) ?? []).map { ($0["key"] as? String ?? "", $0["action"] as? String ?? "") })
        XCTAssertEqual(actions, ["theme": "inferred", "goal": "inferred", "café": "inferred", "auth_token": "secret", "draft": "skipped"])
        XCTAssertFalse(dry.stdout.contains(token))

        let real = try migrate(common, home: home.path, root: root.path)
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertTrue(real.stdout.contains("draft"), "the skipped key is named in the report")
        XCTAssertTrue(real.stdout.contains("a lone UTF-16 surrogate (0xD83D) at code unit 1"))
        XCTAssertEqual(try secrets.secret(forAccount: "auth_token"), token)
        XCTAssertEqual(filesContaining(token, under: root.path), [])
        XCTAssertFalse(real.stdout.contains(token) || real.stderr.contains(token))
        let suite = try SuiteStore(suite: "com.rizq.cli", appID: "com.rizq.cli", root: root.path)
        XCTAssertEqual(suite.string(forKey: "theme"), "dark")
        XCTAssertEqual(suite.integer(forKey: "goal"), 42)
        XCTAssertEqual(suite.string(forKey: "café"), "crème")
        XCTAssertNil(suite.object(forKey: "draft"))

        // Once: the same unchanged profile is recognised.
        let again = try migrate(common, home: home.path, root: root.path)
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("already imported"), again.stdout)
        XCTAssertEqual(fingerprint(home.path), before, "the profile did not change")
    }

    func testBadSourcesFailClearlyAndWriteNothing() throws {
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        let notProfile = home.folder("Documents")
        let cases: [([String], String)] = [
            (["--from", notProfile, "--app", "a.b"], "\(notProfile) is not a browser profile or storage"),
            (["--from", "brave", "--list"], "found no Brave profile; looked in \(home.path)/.config/BraveSoftware/Brave-Browser"),
            (["--from", "electron:Nope", "--list"], "found no Electron app 'Nope' profile"),
            (["--from", home.path + "/missing.localstorage", "--list"], "\(home.path)/missing.localstorage does not exist"),
            (["--list"], "--list shows the origins of a browser's storage: use it with --from"),
            (["--profile", "Work", "dump.json"], "--profile chooses a browser profile: use it with --from"),
            ([], "nothing to import: give a dump FILE (or - for stdin), or --from SOURCE"),
            (["dump.json", "--from", "chromium"], "give either a dump FILE or --from SOURCE, not both"),
            (["--from", "chromium", "--format", "object"], "--format is for dump files"),
        ]
        for (arguments, message) in cases {
            let result = try migrate(arguments, home: home.path, root: root.path)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(fileSnapshot(under: root.path), [:])
    }
}
