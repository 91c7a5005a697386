import Foundation
import XCTest

/// Writes that used to succeed in silence (issue 37, items 3 and 4): plain text that nobody named
/// in the process, plain text with no warning and not read back, and `--session` stored in a
/// vault on disk. Real processes of the CLI, a real vault (passphrase file), a real plain-text file.
final class SecretSilentWritesTests: XCTestCase {
    private func vaultMachine(_ cli: CLIHarness) throws -> [String: String?] {
        let passphrase = try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")
        return cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])
    }

    /// After `secret move --to plaintext`, a later `secret set` that does not name plain text is
    /// refused (it used to write plain text with exit 0 and no word, which no later `get` read);
    /// the moved secrets stay readable through the same chain.
    func testARememberedPlainTextTargetIsRefusedUntilNamedAndItsSecretsStayReadable() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.plain\(UUID().uuidString.prefix(6))"
        let environment = try vaultMachine(cli)
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "a"], stdin: Data("first".utf8), environment: environment).status, 0)
        let moved = try cli.run(["secret", "move", "--service", service, "--from", "vault", "--to", "plaintext", "--delete-source"], environment: environment)
        XCTAssertEqual(moved.status, 0, moved.stderr)

        let unnamed = try cli.run(["secret", "set", "--service", service, "b"], stdin: Data("second".utf8), environment: environment)
        XCTAssertNotEqual(unnamed.status, 0, "plain text not named in the process is refused")
        XCTAssertTrue(unnamed.stderr.contains("plain text is written only when named"), unnamed.stderr)
        let file = cli.secretsRoot + "/" + service + "/plaintext.json"
        XCTAssertFalse(try String(contentsOfFile: file, encoding: .utf8).contains("\"b\""), "nothing was written")

        let read = try cli.run(["secret", "get", "--service", service, "a"], environment: environment)
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, "first", "the chain reads back what its remembered target holds")
    }

    /// Named in the process (`RIZQ_SECRETS_BACKEND=plaintext`), every write warns, `get` reads it
    /// back, and `secret backends` shows plain text as the write target.
    func testNamedPlainTextWarnsOnEveryWriteReadsBackAndIsShownAsTheTarget() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.named\(UUID().uuidString.prefix(6))"
        var environment = try vaultMachine(cli)
        environment["RIZQ_SECRETS_BACKEND"] = "plaintext"
        for (account, value) in [("a", "v1-\(UUID().uuidString)"), ("b", "v2-\(UUID().uuidString)")] {
            let stored = try cli.run(["secret", "set", "--service", service, account], stdin: Data(value.utf8), environment: environment)
            XCTAssertEqual(stored.status, 0, stored.stderr)
            XCTAssertTrue(stored.stderr.contains("PLAIN TEXT"), "every write warns: \(stored.stderr)")
            XCTAssertFalse(stored.stderr.contains(value), "the warning never holds the secret")
            XCTAssertEqual(try cli.run(["secret", "get", "--service", service, account], environment: environment).stdout, value)
        }
        let backends = try cli.run(["secret", "backends", "--service", service, "--json"], environment: environment)
        XCTAssertEqual(backends.status, 0, backends.stderr)
        XCTAssertTrue(backends.stdout.contains(#""writeTarget":{"backend":"plaintext""#), backends.stdout)
        // Named in the config file instead, the same.
        try Data(#"{"backend": "plaintext"}"#.utf8).write(to: URL(fileURLWithPath: cli.root + "/secrets.json"))
        XCTAssertEqual(chmod(cli.root + "/secrets.json", 0o600), 0)
        environment["RIZQ_SECRETS_BACKEND"] = .some(nil)
        let fromConfig = try cli.run(["secret", "set", "--service", service, "c"], stdin: Data("three".utf8), environment: environment)
        XCTAssertEqual(fromConfig.status, 0, fromConfig.stderr)
        XCTAssertTrue(fromConfig.stderr.contains("PLAIN TEXT"), fromConfig.stderr)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "c"], environment: environment).stdout, "three")
    }

    /// `secret set --session` whose write target is the vault is refused and writes nothing (it
    /// used to write the vault on disk and exit 0).
    func testSessionStoresOnlyInTheSecretService() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.session\(UUID().uuidString.prefix(6))"
        let environment = try vaultMachine(cli)
        let session = try cli.run(["secret", "set", "--service", service, "--session", "k"], stdin: Data("v".utf8), environment: environment)
        XCTAssertEqual(session.status, 2, session.stderr)
        XCTAssertTrue(session.stderr.contains("--session") && session.stderr.contains("vault") && session.stderr.contains("nothing was stored"), session.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.secretsRoot + "/" + service + "/vault.age"), "no vault was written")
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "k"], environment: environment).status, 1)
    }
}
