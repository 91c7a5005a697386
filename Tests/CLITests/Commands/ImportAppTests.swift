import Foundation
import XCTest

/// `rizq-prefs import-app` (first named `rizq-prefs migrate`), run as the built binary in a temporary root and the real Secret Service
/// of the test session.
final class ImportAppTests: XCTestCase {
    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups { cleanup() }
        cleanups = []
    }

    /// A service name of this test only; its items are deleted afterwards.
    private func uniqueService(_ cli: CLIHarness) -> String {
        let service = "org.rizq.clitests.migrate.\(UUID().uuidString.prefix(8))"
        cleanups.append {
            let accounts = (try? cli.run(["secret", "list", "--service", service]))?.stdout.split(separator: "\n") ?? []
            for account in accounts { _ = try? cli.run(["secret", "delete", "--service", service, String(account)]) }
        }
        return service
    }

    private func write(_ text: String, _ cli: CLIHarness, name: String) -> String {
        let folder = cli.root + "-inputs"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        cleanups.append { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Every file under the root and its bytes (lock files aside).
    private func dumpJSON(_ pairs: [(String, String)]) throws -> String {
        let object = Dictionary(pairs, uniquingKeysWith: { $1 })
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The first name, `migrate`, still works and points to the new one.
    func testTheOldNameStillWorksAndPointsToTheNewOne() throws {
        let cli = try CLIHarness()
        let dump = write(try dumpJSON([("theme_mode", "dark")]), cli, name: "dump.json")
        let old = try cli.run(["migrate", dump, "--dry-run"])
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertTrue(old.stderr.contains("'rizq-prefs migrate' is now 'rizq-prefs import-app'"), old.stderr)
        let new = try cli.run(["import-app", dump, "--dry-run"])
        XCTAssertEqual(new.status, 0, new.stderr)
        XCTAssertEqual(new.stdout, old.stdout, "the same command under both names")
        XCTAssertFalse(new.stderr.contains("is now"), new.stderr)
    }

    func testDryRunThenImportThenAlreadyImportedThenForce() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = uniqueService(cli)
        let token = FakeToken.jwt(subject: "cli-test")
        let dump = write(try dumpJSON([("theme_mode", "dark"), ("rizq_welcome_shown", "true"), ("streak", "12"), ("refresh_token", token), ("prefs", #"{"goal":3}"#)]), cli, name: "dump.json")
        let plan = write(#"{"id":"cli-test-1","rules":[{"key":"streak","to":{"key":"current_streak","type":"int"}}]}"#, cli, name: "plan.json")

        let dry = try cli.run(["import-app", dump, "--plan", plan, "--service", service, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("dry run, nothing was written"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("streak → \(cli.appID) / current_streak (int)"), dry.stdout)
        XCTAssertFalse(dry.stdout.contains(token))
        XCTAssertEqual(fileSnapshot(under: cli.root), [:], "a dry run writes nothing")
        XCTAssertEqual(try cli.run(["secret", "list", "--service", service]).stdout, "")

        let real = try cli.run(["import-app", dump, "--plan", plan, "--service", service])
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertTrue(real.stdout.contains("Import 'cli-test-1': imported."), real.stdout)
        XCTAssertFalse(real.stdout.contains(token) || real.stderr.contains(token))
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(cli.bytes(cli.standardPath))) as? [String: Any])
        XCTAssertEqual(file["current_streak"] as? Int, 12)
        XCTAssertEqual(file["rizq_welcome_shown"] as? Bool, true)
        XCTAssertEqual(file["theme_mode"] as? String, "dark")
        XCTAssertEqual((file["prefs"] as? [String: Any])?["goal"] as? Int, 3)
        XCTAssertNil(file["refresh_token"])
        let secret = try cli.run(["secret", "get", "--service", service, "refresh_token"])
        XCTAssertTrue(secret.stdout == token, "the token is in the Secret Service")
        XCTAssertEqual(cli.filesContaining(token), [])
        XCTAssertEqual(try cli.run(["get", "current_streak"]).stdout, "12\n")

        let before = fileSnapshot(under: cli.root)
        let again = try cli.run(["import-app", dump, "--plan", plan, "--service", service])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("already imported"), again.stdout)
        XCTAssertEqual(fileSnapshot(under: cli.root), before, "a second run changes no byte of any file")

        XCTAssertEqual(try cli.run(["set", "theme_mode", "light"]).status, 0)
        let forced = try cli.run(["import-app", dump, "--plan", plan, "--service", service, "--force", "--overwrite"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stdout.contains("Import 'cli-test-1': imported."), forced.stdout)
        XCTAssertEqual(try cli.run(["get", "theme_mode"]).stdout, "dark\n")
    }

    func testJSONReportWithoutAPlanAndFromStdin() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = uniqueService(cli)
        let token = FakeToken.jwt(subject: "cli-test")
        let state = #"{"cookies":[],"origins":[{"origin":"https://a.example","localStorage":[{"name":"theme_mode","value":"dark"}]},{"origin":"https://app.rizq.io","localStorage":[{"name":"sb-xyz-auth-token","value":"{\"access_token\":\"\#(token)\"}"},{"name":"count","value":"05"}]}]}"#

        let ambiguous = try cli.run(["import-app", "-", "--service", service], stdin: Data(state.utf8))
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssertTrue(ambiguous.stderr.contains("https://a.example, https://app.rizq.io"), ambiguous.stderr)
        XCTAssertTrue(ambiguous.stderr.contains("--origin"), ambiguous.stderr)

        let result = try cli.run(["import-app", "-", "--service", service, "--origin", "https://app.rizq.io", "--suite", "com.rizq.clitest.web", "--json"], stdin: Data(state.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains(token))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["status"] as? String, "imported")
        XCTAssertEqual(report["format"] as? String, "playwright")
        XCTAssertEqual(report["origin"] as? String, "https://app.rizq.io")
        XCTAssertEqual(report["source"] as? String, "stdin")
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["action"] as? String }, ["secret", "inferred"])
        XCTAssertEqual(items[0]["service"] as? String, service)
        XCTAssertEqual(items[0]["redacted"] as? Bool, true)
        XCTAssertEqual(items[1]["suite"] as? String, "com.rizq.clitest.web")
        XCTAssertEqual(items[1]["value"] as? String, "05")
        XCTAssertTrue((try cli.run(["secret", "get", "--service", service, "sb-xyz-auth-token"])).stdout.contains(token))
    }

    func testMalformedInputsExitTwoAndWriteNothing() throws {
        let cli = try CLIHarness()
        let truncated = write(#"{"theme_mode":"dark","streak":"1"#, cli, name: "truncated.json")
        let shape = write(#""a string""#, cli, name: "string.json")
        let pairs = write(#"[["a","1"],{"b":"2"}]"#, cli, name: "pairs.json")
        let binary = cli.root + "-inputs/binary.db"
        _ = FileManager.default.createFile(atPath: binary, contents: Data("SQLite format 3".utf8) + Data([0, 0x10, 0xFF, 0xFE, 0x80, 0x01]))
        let huge = cli.root + "-inputs/huge.json"
        _ = FileManager.default.createFile(atPath: huge, contents: Data("{".utf8))
        XCTAssertEqual(truncate(huge, off_t(70 << 20)), 0, "a sparse 70 MiB file")
        let badPlan = write(#"{"id":"x","rules":[{"key":"a","to":{"type":"integer"}}]}"#, cli, name: "plan.json")
        let good = write(#"{"a":"1"}"#, cli, name: "good.json")
        let notInt = write(#"{"id":"y","rules":[{"key":"a","to":{"type":"int"}}]}"#, cli, name: "int-plan.json")
        let goodForInt = write(#"{"a":"one"}"#, cli, name: "one.json")

        let cases: [(arguments: [String], expected: String)] = [
            ([truncated], "line 1, column 33 (byte 32): not valid JSON: the input ends inside the string that starts at byte 30: it is truncated"),
            ([shape], "not a localStorage dump: the top level is a string"),
            ([pairs], "element 2 is an object"),
            ([binary], "not UTF-8 text (this is an SQLite database"),
            ([huge], "more than the 64 MiB"),
            ([cli.root + "-inputs/missing.json"], "no such file"),
            ([good, "--format", "xml"], "unknown format 'xml'"),
            ([good, "--format", "playwright"], "format 'playwright' expects"),
            ([good, "--plan", badPlan], "at rules[0].to.type is invalid: unknown type 'integer'"),
            ([good, "--plan", cli.root + "-inputs/none.json"], "cannot read the plan"),
            ([goodForInt, "--plan", notInt], "key 'a' does not convert to int"),
        ]
        for (arguments, expected) in cases {
            let result = try cli.run(["import-app"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(fileSnapshot(under: cli.root), [:], "\(arguments) wrote something")
        }
        var environment = cli.environment
        environment["RIZQ_PREFS_APP_ID"] = nil
        cli.environment = environment
        let noApp = try cli.run(["import-app", good])
        XCTAssertEqual(noApp.status, 2)
        XCTAssertTrue(noApp.stderr.contains("--app"), noApp.stderr)
    }

    /// No session bus and no key source (systemd-creds off, no passphrase, no key file): no
    /// backend can store the token, so `migrate` exits 4 before writing anything — no suite, no
    /// journal, no vault — with the fixes; a dry run still shows its plan and says a real import
    /// would stop.
    func testNoBackendThatCanStoreExitsFourBeforeAnyWriteButADryRunWorks() throws {
        let cli = try CLIHarness()
        let dump = write(try dumpJSON([("theme_mode", "dark"), ("auth_token", FakeToken.jwt(subject: "cli-test"))]), cli, name: "dump.json")
        let real = try cli.run(["import-app", dump], environment: cli.headless())
        XCTAssertEqual(real.status, 4, real.stderr)
        XCTAssertTrue(real.stderr.contains("nothing was imported"), real.stderr)
        for fix in ["RIZQ_SECRETS_PASSPHRASE_FILE", "rizq-prefs secret unlock", "desktop session"] {
            XCTAssertTrue(real.stderr.contains(fix), "the error names the fix \(fix): \(real.stderr)")
        }
        XCTAssertEqual(fileSnapshot(under: cli.root), [:], "no suite, no journal, no vault")
        let dry = try cli.run(["import-app", dump, "--dry-run"], environment: cli.headless())
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("a real import would stop here"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("auth_token → secret store, service \(cli.appID), account auth_token (value not shown)"), dry.stdout)
        XCTAssertEqual(fileSnapshot(under: cli.root), [:], "a dry run writes nothing")
    }

    /// No session bus, and a key source (a passphrase file): the token goes to the vault the
    /// chain makes, a later process reads it back, and the suite has the setting but not the token.
    func testWithNoSessionBusTheTokenGoesToTheVault() throws {
        let cli = try CLIHarness()
        let token = FakeToken.jwt(subject: "cli-vault")
        let dump = write(try dumpJSON([("theme_mode", "dark"), ("auth_token", token)]), cli, name: "dump.json")
        let environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": try cli.writeFile("passphrase", "pass-\(UUID().uuidString)\n")])
        let real = try cli.run(["import-app", dump], environment: environment)
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertTrue(real.stdout.contains("imported"), real.stdout)
        XCTAssertFalse(real.stdout.contains(token) || real.stderr.contains(token))

        XCTAssertEqual(try cli.run(["secret", "get", "auth_token"], environment: environment).stdout, token)
        XCTAssertEqual(try cli.run(["get", "theme_mode"], environment: environment).stdout, "dark\n")
        let backends = try cli.run(["secret", "backends"], environment: environment).stdout
        XCTAssertTrue(backends.contains("Writes go to vault"), backends)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.secretsRoot + "/\(cli.appID)/vault.age"))
        XCTAssertEqual(filesLeaking(token, under: cli.root), [], "the token is in no file in any form, the vault's ciphertext aside")
    }

    func testAFailedSuiteWriteExitsThreeAndRollsBack() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = uniqueService(cli)
        let token = FakeToken.jwt(subject: "cli-test")
        // The app's suite exists; the group suite's folder cannot be written (for root too: the
        // lock file's place is taken by a folder).
        XCTAssertEqual(try cli.run(["set", "theme_mode", "light"]).status, 0)
        try FileManager.default.createDirectory(atPath: cli.root + "/groups/.group.com.rizq.clitest.lock/x", withIntermediateDirectories: true)
        let before = fileSnapshot(under: cli.root)
        let dump = write(try dumpJSON([("theme_mode", "dark"), ("shared", "true"), ("session_token", token)]), cli, name: "dump.json")
        let plan = write(#"{"id":"rollback","rules":[{"key":"shared","to":{"suite":"group.com.rizq.clitest","type":"bool"}}]}"#, cli, name: "plan.json")
        let result = try cli.run(["import-app", dump, "--plan", plan, "--service", service, "--overwrite"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing was imported: the suites are as they were and the 1 secret(s) written were removed"), result.stderr)
        XCTAssertEqual(fileSnapshot(under: cli.root), before, "every suite byte for byte as it was")
        XCTAssertEqual(try cli.run(["secret", "list", "--service", service]).stdout, "", "the secret written was removed")
        XCTAssertEqual(cli.filesContaining(token), [])
    }
}
