import Foundation
import RizqPrefs
import XCTest

/// `--verbose`/`-v`: the libraries' debug log on stderr, with their metadata, never a secret or a
/// stored value; without it, stderr stays empty on success.
final class VerboseLogTests: XCTestCase {
    func testTheDefaultIsQuiet() throws {
        let cli = try CLIHarness()
        for arguments in [["set", "theme_mode", "dark"], ["get", "theme_mode"], ["list"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "", "\(arguments)")
        }
    }

    func testVerboseShowsTheSuiteBeingOpenedAndWrittenButNoValue() throws {
        let cli = try CLIHarness()
        let value = "value-\(UUID().uuidString)"
        let set = try cli.run("set", "theme_mode", value, "-v")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stderr.contains("debug [RizqPrefs] opened suite"), set.stderr)
        XCTAssertTrue(set.stderr.contains("debug [RizqPrefs] wrote suite"), set.stderr)
        XCTAssertTrue(set.stderr.contains("path=\(cli.standardPath)"), set.stderr)
        XCTAssertTrue(set.stderr.contains("suite=\(cli.appID)"), set.stderr)

        let get = try cli.run("--verbose", "get", "theme_mode")
        XCTAssertEqual(get.stdout, value + "\n", "stdout holds only the value")
        XCTAssertTrue(get.stderr.contains("opened suite"), get.stderr)
        XCTAssertFalse(set.stderr.contains(value) || get.stderr.contains(value), "a stored value is never logged")
    }

    func testAVerboseWordAfterTheTerminatorIsAValue() throws {
        let cli = try CLIHarness()
        let set = try cli.run("set", "--", "flag", "-v")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stderr, "")
        XCTAssertEqual(try cli.run("get", "flag").stdout, "-v\n")
    }

    func testVerboseSecretCommandsLogTheCallsButNeverTheSecret() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.\(UUID().uuidString.prefix(8))"
        let secret = FakeToken.jwt()
        var stderr = ""
        let stored = try cli.run("-v", "secret", "set", "--service", service, "auth_token", stdin: secret)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        stderr += stored.stderr
        let read = try cli.run("secret", "get", "--service", service, "auth_token", "--verbose")
        XCTAssertEqual(read.stdout, secret, "the secret on stdout, exactly")
        stderr += read.stderr
        for arguments in [["secret", "list", "--service", service, "-v"], ["secret", "delete", "--service", service, "auth_token", "-v"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            stderr += result.stderr
        }
        for line in ["stored a secret", "looked up a secret", "listed accounts", "deleted a secret"] {
            XCTAssertTrue(stderr.contains("debug [RizqSecrets] \(line)"), "missing '\(line)' in: \(stderr)")
        }
        XCTAssertTrue(stderr.contains("account=auth_token"), stderr)
        XCTAssertTrue(stderr.contains("service=\(service)"), stderr)
        XCTAssertFalse(stderr.contains(secret), "the secret is never logged")
        XCTAssertFalse(stderr.contains(String(secret.prefix(20))), "nor any part of it")
    }

    func testVerboseImportAppLogsTheImportStepsButNoTokenFromTheDump() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let token = FakeToken.jwt()
        let dump = cli.root + "/dump.json"
        try Data(#"{"auth_token": "\#(token)", "theme_mode": "dark"}"#.utf8).write(to: URL(fileURLWithPath: dump))
        let service = "org.rizq.clitests.\(UUID().uuidString.prefix(8))"
        let result = try cli.run(["import-app", dump, "--service", service, "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        defer { _ = try? cli.run("secret", "delete", "--service", service, "auth_token") }
        XCTAssertTrue(result.stderr.contains("debug [RizqImport] import planned"), result.stderr)
        XCTAssertTrue(result.stderr.contains("debug [RizqImport] import done"), result.stderr)
        XCTAssertTrue(result.stderr.contains("debug [RizqSecrets] stored a secret"), result.stderr)
        XCTAssertFalse(result.stderr.contains(token) || result.stdout.contains(token), "the token is never shown")
    }
}
