import Foundation
import XCTest
import RizqTestSupport

/// `rizq-prefs import-app --from FILE.plist`, run as the built binary on property lists written by
/// plistlib (Tests/Fixtures/PropertyLists) and by Foundation.
final class ImportAppPlistTests: XCTestCase {
    private static var fixtures: String {
        repositoryRoot().appendingPathComponent("Tests/Fixtures/PropertyLists").path
    }

    /// A copy of `bytes` named `name` beside the test's root, with an old modification time.
    private func input(_ bytes: Data, named name: String, _ cli: CLIHarness) throws -> String {
        let folder = cli.root + "-inputs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: path)
        return path
    }

    private func fixture(_ name: String) throws -> Data {
        try XCTUnwrap(FileManager.default.contents(atPath: Self.fixtures + "/" + name))
    }

    func testListThenDryRunThenImportAndTheSourceIsUntouched() throws {
        let cli = try CLIHarness()
        let bytes = try fixture("typed.binary.plist")
        let source = try input(bytes, named: "com.rizq.legacy.plist", cli)
        let modified = try FileManager.default.attributesOfItem(atPath: source)[.modificationDate] as? Date

        let list = try cli.run(["import-app", "--from", source, "--list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("com.rizq.legacy"), list.stdout)
        XCTAssertTrue(list.stdout.contains("28") && list.stdout.contains("886"), list.stdout)
        XCTAssertFalse(list.stdout.contains("dark"), "a listing shows no value")
        let listJSON = try cli.run(["import-app", "--from", source, "--list", "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: listJSON.stdoutBytes) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "plist")
        let origins = try XCTUnwrap(object["origins"] as? [[String: Any]])
        XCTAssertEqual(origins.first?["keys"] as? Int, 28)
        XCTAssertEqual(origins.first?["bytes"] as? Int, 886)

        let dry = try cli.run(["import-app", "--from", source, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("dry run, nothing was written"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("user_preferences → \(cli.appID) / user_preferences (json)"), dry.stdout)
        XCTAssertEqual(fileSnapshot(under: cli.root), [:], "a dry run writes nothing")

        let real = try cli.run(["import-app", "--from", source])
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertTrue(real.stdout.contains("imported."), real.stdout)
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(cli.bytes(cli.standardPath))) as? [String: Any])
        XCTAssertEqual(file["streak"] as? Int, 12)
        XCTAssertEqual(file["theme_mode"] as? String, "dark")
        XCTAssertEqual((file["user_preferences"] as? [String: Any])?["dailyGoal"] as? Int, 3)
        XCTAssertEqual((file["whole_date"] as? [String: Any])?["$date"] as? String, "2024-11-22T13:47:00Z")
        XCTAssertEqual((file["bytes"] as? [String: Any])?["$data"] as? String, "AAH+/w==")
        XCTAssertEqual(try cli.run(["get", "one_double"]).stdout, "1.0\n")

        let again = try cli.run(["import-app", "--from", source])
        XCTAssertTrue(again.stdout.contains("already imported"), again.stdout)
        XCTAssertEqual(FileManager.default.contents(atPath: source), bytes, "the source's bytes are unchanged")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: source)[.modificationDate] as? Date, modified)

        // A dump FILE that is a plist is recognised too.
        let other = try CLIHarness()
        let positional = try other.run(["import-app", source, "--dry-run"])
        XCTAssertEqual(positional.status, 0, positional.stderr)
        XCTAssertTrue(positional.stdout.contains("(plist, sha256:"), positional.stdout)
    }

    func testBadPropertyListsExitTwoNamingTheFileAndWriteNothing() throws {
        let cli = try CLIHarness()
        let binary = try fixture("typed.binary.plist")
        let cases: [(String, Data, String)] = [
            ("array.plist", try fixture("root-array.xml.plist"), "its top level is an array"),
            ("cut.plist", binary.prefix(binary.count / 2), "cut short"),
            ("text.plist", Data("{\n    theme = dark;\n}\n".utf8), "defaults export"),
            ("json.plist", Data(#"{"theme": "dark"}"#.utf8), "not a property list"),
        ]
        for (name, bytes, expected) in cases {
            let path = try input(bytes, named: name, cli)
            let result = try cli.run(["import-app", "--from", path, "--dry-run"])
            XCTAssertEqual(result.status, 2, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(path), "\(name): the error names the file: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("nothing was imported"), "\(name): \(result.stderr)")
            XCTAssertEqual(try cli.run(["import-app", "--from", path]).status, 2)
            XCTAssertEqual(fileSnapshot(under: cli.root), [:], "\(name): nothing written")
        }
    }

    func testATokenGoesToTheSecretServiceAndIsNeverPrinted() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.plist.\(UUID().uuidString.prefix(8))"
        addTeardownBlock { _ = try? cli.run(["secret", "delete", "--service", service, "auth_token"]) }
        let token = FakeToken.jwt()
        let plist = try PropertyListSerialization.data(fromPropertyList: ["auth_token": token, "theme": "dark"], format: .binary, options: 0)
        let source = try input(plist, named: "com.rizq.legacy.plist", cli)
        let result = try cli.run(["import-app", "--from", source, "--service", service])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains(token) || result.stderr.contains(token))
        XCTAssertEqual(try cli.run(["secret", "list", "--service", service]).stdout, "auth_token\n")
        XCTAssertEqual(cli.filesContaining(token), [])
    }
}
