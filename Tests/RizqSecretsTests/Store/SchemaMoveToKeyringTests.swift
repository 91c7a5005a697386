import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
import RizqTestSupport

/// Schema stages that move a key into the real Secret Service (gnome-keyring in scripts/test's
/// private session): the value leaves the suite file and never appears in a file, a message or
/// a preview; a failure anywhere leaves the keyring, the suite and the other suites as they were.
final class SchemaMoveToKeyringTests: XCTestCase {
    private var root = ""
    private var service = ""
    private var keyring: SecretServiceStore!
    private let suite = "com.rizq.schema-keyring"
    private let other = "group.com.rizq.schema-keyring-other"

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "rizq-schema-keyring-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root + "/apps/tests", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/groups", withIntermediateDirectories: true)
        service = "org.rizq.tests.schema.\(name.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
        keyring = SecretServiceStore(service: service)
    }

    override func tearDownWithError() throws {
        for account in (try? keyring.accounts()) ?? [] { _ = try? keyring.deleteSecret(forAccount: account) }
        _ = runQuietly("/usr/bin/chattr", ["-i", root + "/apps/tests"])
        chmod(root + "/apps/tests", 0o755)
        try? FileManager.default.removeItem(atPath: root)
    }

    private var suitePath: String { root + "/apps/tests/\(suite).json" }
    private var otherPath: String { root + "/groups/\(other).json" }

    private func writeSuite(_ entries: [String: String]) throws {
        let data = try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])
        XCTAssertTrue(FileManager.default.createFile(atPath: suitePath, contents: data))
    }

    private func open(_ schema: SuiteMigrations) throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: "tests", root: root, migrations: schema)
    }

    func testATokenMovesIntoTheSecretServiceAndOutOfTheFile() throws {
        let token = FakeToken.jwt()
        try writeSuite(["auth_token": token, "theme_mode": "dark"])
        let schema = try SuiteMigrations(version: 1, stages: [
            .lightweight(from: 0, to: 1, [.moveToSecretStore("auth_token", keyring, label: "RIZQ sign-in")]),
        ])
        let store = try open(schema)
        XCTAssertEqual(store.schemaVersion, 1)
        XCTAssertEqual(store.keys, ["theme_mode"])
        XCTAssertTrue(try keyring.secret(forAccount: "auth_token") == token, "the token is in the keyring")
        XCTAssertEqual(filesContaining(token, under: root), [], "the token is in no file any more")
        // secret-tool, another client of the same Secret Service, finds it under the attributes.
        let lookup = try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "auth_token"])
        XCTAssertEqual(lookup.status, 0)
        XCTAssertTrue(lookup.stdout == token, "secret-tool reads the moved token")
    }

    /// Every log line of every level (RizqPrefs' and RizqSecrets') of a process that moves a
    /// token into the Secret Service: the migration is logged, the token never.
    func testATokenMovedInAnotherProcessNeverAppearsInItsLog() throws {
        let token = FakeToken.jwt()
        try writeSuite(["auth_token": token, "theme_mode": "dark"])
        // The schema test child, built beside this test bundle.
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let child = URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("rizq-schema-test-child").path
        let result = try runCommand(child, [root, suite, "secret", service])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "version 1\n")
        XCTAssertTrue(result.stderr.contains("migrated suite from schema version 0 to 1"), "the log was on: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains(token), "the token is in the log")
        XCTAssertFalse(result.stdout.contains(token))
        XCTAssertTrue(try keyring.secret(forAccount: "auth_token") == token, "the token is in the keyring")
    }

    func testAFailingCustomStageLeavesTheKeyringAndTheSuitesAsTheyWere() throws {
        let token = FakeToken.jwt()
        try writeSuite(["auth_token": token, "refresh_token": FakeToken.randomText(40), "streak": "4"])
        XCTAssertTrue(FileManager.default.createFile(atPath: otherPath, contents: Data("{\"kept\": 1}\n".utf8)))
        try keyring.setSecret("the previous one", forAccount: "auth_token")
        let files = fileSnapshot(under: root)
        struct Refused: Error, CustomStringConvertible { var description: String { "refused by the test" } }
        let schema = try SuiteMigrations(version: 3, stages: [
            .lightweight(from: 0, to: 1, [.moveToSecretStore("auth_token", keyring), .moveToSecretStore("refresh_token", keyring)]),
            .lightweight(from: 1, to: 2, [.move("streak", toSuite: other)]),
            .custom(from: 2, to: 3) { _ in throw Refused() },
        ])
        XCTAssertThrowsError(try open(schema)) { error in
            guard case MigrationError.stageFailed(_, 2, 3, let reason, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("refused by the test"), reason)
        }
        XCTAssertTrue(try keyring.secret(forAccount: "auth_token") == "the previous one")
        XCTAssertTrue(try keyring.secret(forAccount: "refresh_token") == nil)
        XCTAssertEqual(try keyring.accounts(), ["auth_token"])
        XCTAssertEqual(fileSnapshot(under: root), files, "the suite and the other suite, byte for byte")
    }

    func testAWriteThatFailsAfterTheKeyringAndAnotherSuitePutsBothBack() throws {
        let token = FakeToken.jwt()
        let refresh = FakeToken.randomText(40)
        try writeSuite(["auth_token": token, "refresh_token": refresh, "streak": "4"])
        XCTAssertTrue(FileManager.default.createFile(atPath: otherPath, contents: Data("{\"kept\": 1}\n".utf8)))
        try keyring.setSecret("the previous one", forAccount: "auth_token")
        // The suite's folder takes no new file (its lock file exists): the migrated file cannot
        // be written, after the keyring and the other suite were.
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/apps/tests/.\(suite).lock", contents: nil))
        let files = fileSnapshot(under: root)
        let undo = try makeReadOnly(root + "/apps/tests")
        defer { undo() }
        let schema = try SuiteMigrations(version: 1, stages: [
            .lightweight(from: 0, to: 1, [
                .moveToSecretStore("auth_token", keyring),
                .moveToSecretStore("refresh_token", keyring),
                .move("streak", toSuite: other),
            ]),
        ])
        XCTAssertThrowsError(try open(schema)) { error in
            guard case MigrationError.writeFailed(_, 0, 1, _, let problems) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problems, [])
            for secret in [token, refresh] { XCTAssertFalse("\(error)".contains(secret), "the message holds no secret") }
        }
        XCTAssertTrue(try keyring.secret(forAccount: "auth_token") == "the previous one", "the replaced secret is back")
        XCTAssertTrue(try keyring.secret(forAccount: "refresh_token") == nil, "the new secret is gone")
        XCTAssertEqual(fileSnapshot(under: root), files)
        // Once the folder takes files again, the same open migrates.
        undo()
        XCTAssertEqual(try open(schema).schemaVersion, 1)
        XCTAssertTrue(try keyring.secret(forAccount: "auth_token") == token, "the token is in the keyring")
        XCTAssertTrue(try keyring.secret(forAccount: "refresh_token") == refresh, "the refresh token is in the keyring")
        XCTAssertEqual(try SuiteStore(suite: other, appID: "tests", root: root).string(forKey: "streak"), "4")
    }

    func testThePreviewNeverShowsAValueOnItsWayToTheKeyring() throws {
        let token = FakeToken.jwt()
        try writeSuite(["token": token])
        let schema = try SuiteMigrations(version: 2, stages: [
            .lightweight(from: 0, to: 1, [.rename("token", to: "auth_token")]),
            .lightweight(from: 1, to: 2, [.moveToSecretStore("auth_token", keyring, account: "session")]),
        ])
        let preview = try SuiteStore.previewMigration(suite: suite, appID: "tests", root: root, migrations: schema)
        XCTAssertEqual(preview.stages[0].changes, [
            .init(key: "auth_token", before: .absent, after: .secret, movedTo: nil),
            .init(key: "token", before: .secret, after: .absent, movedTo: nil),
        ])
        XCTAssertEqual(preview.stages[1].changes, [
            .init(key: "auth_token", before: .secret, after: .absent, movedTo: .secretStore(service: service, account: "session")),
        ])
        XCTAssertFalse(preview.description.contains(token))
        XCTAssertTrue(preview.description.contains("auth_token: (secret) → moved to secret store \(service), account session"), preview.description)
        XCTAssertEqual(try keyring.accounts(), [], "a dry run writes no secret")
    }

    func testOnlyTextOrDataMovesAndTheMessageNamesNoValue() throws {
        let data = try JSONSerialization.data(withJSONObject: ["pin": 123456])
        XCTAssertTrue(FileManager.default.createFile(atPath: suitePath, contents: data))
        let schema = try SuiteMigrations(version: 1, stages: [.lightweight(from: 0, to: 1, [.moveToSecretStore("pin", keyring)])])
        XCTAssertThrowsError(try open(schema)) { error in
            XCTAssertTrue("\(error)".contains("'pin' holds a int; only a string or data"), "\(error)")
            XCTAssertFalse("\(error)".contains("123456"))
        }
        XCTAssertEqual(try keyring.accounts(), [])
    }

    func testAnAppsTestsCanUseTheInMemoryStore() throws {
        try writeSuite(["auth_token": "t"])
        let memory = InMemorySecretStore(service: "com.rizq.app")
        let schema = try SuiteMigrations(version: 1, stages: [.lightweight(from: 0, to: 1, [.moveToSecretStore("auth_token", memory)])])
        XCTAssertEqual(try open(schema).keys, [])
        XCTAssertEqual(try memory.secret(forAccount: "auth_token"), "t")
    }
}
