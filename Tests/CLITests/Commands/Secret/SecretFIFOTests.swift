import Foundation
import XCTest

/// Issue 37, item 6: a FIFO where the chain expects a file — the secrets config, a passphrase
/// file, a credential — hung `secret list` for good (the config) or for the full 60 s. Each is
/// refused at once now: the command ends with an error naming the FIFO (no duration is asserted:
/// the test simply finishes).
final class SecretFIFOTests: XCTestCase {
    private func fifo(_ path: String) throws {
        XCTAssertEqual(mkfifo(path, 0o600), 0, "mkfifo \(path)")
    }

    func testAFIFOAtTheSecretsConfigPathIsRefusedAtOnce() throws {
        let cli = try CLIHarness()
        let config = cli.root + "/secrets.json"
        try fifo(config)
        let service = "org.rizq.clitests.fifoconfig\(UUID().uuidString.prefix(6))"
        for arguments in [["secret", "list", "--service", service], ["secret", "get", "--service", service, "token"], ["secret", "backends", "--service", service]] {
            let result = try cli.run(arguments, environment: cli.headless(["RIZQ_SECRETS_CONFIG": config]))
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(config) && result.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(arguments): \(result.stderr)")
        }
    }

    func testAFIFOAsThePassphraseFileIsRefusedAtOnce() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.fifopass\(UUID().uuidString.prefix(6))"
        let passphrase = try cli.writeFile("passphrase", "a real one\n")
        let good = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "token"], stdin: Data("v".utf8), environment: good).status, 0)
        let pipe = cli.root + "/passphrase-fifo"
        try fifo(pipe)
        let fromFIFO = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": pipe])
        let read = try cli.run(["secret", "get", "--service", service, "token"], environment: fromFIFO)
        XCTAssertNotEqual(read.status, 0)
        XCTAssertTrue(read.stderr.contains("the passphrase file \(pipe) is refused: it is a FIFO (named pipe)"), read.stderr)
        let fresh = try cli.run(["secret", "set", "--service", service + ".new", "token"], stdin: Data("v".utf8), environment: fromFIFO)
        XCTAssertNotEqual(fresh.status, 0)
        XCTAssertTrue(fresh.stderr.contains("is a FIFO (named pipe)"), fresh.stderr)
    }

    func testAFIFOAsACredentialIsRefusedAtOnce() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.fifocred\(UUID().uuidString.prefix(6))"
        let credentials = cli.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try fifo(credentials + "/\(service).token")
        let read = try cli.run(["secret", "get", "--service", service, "token"], environment: cli.headless(["CREDENTIALS_DIRECTORY": credentials]))
        XCTAssertNotEqual(read.status, 0)
        XCTAssertTrue(read.stderr.contains("refusing the credential \(service).token in \(credentials)") && read.stderr.contains("is a FIFO (named pipe)"), read.stderr)
    }
}
