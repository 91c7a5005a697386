import Foundation
import XCTest

/// Issue 37, item 2: the chain's files that another user made are not trusted. As root (this
/// test): a secrets config file `nobody` owns, naming a passphrase command, does not run it; a
/// credential folder reached through a link to a folder `nobody` owns is refused. Each refusal
/// names the file and the check that failed.
final class SecretForeignFilesTests: XCTestCase {
    static let nobody: uid_t = 65_534

    /// A folder under the harness's root that `nobody` owns.
    private func nobodysFolder(_ cli: CLIHarness, _ name: String) throws -> String {
        try requireRoot()
        let path = cli.root + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(chown(path, Self.nobody, Self.nobody), 0)
        return path
    }

    func testASecretsConfigAnotherUserOwnsNeverRunsItsPassphraseCommand() throws {
        let cli = try CLIHarness()
        let folder = try nobodysFolder(cli, "nobodys-config")
        let marker = cli.root + "/the-command-ran"
        let config = folder + "/secrets.json"
        let json = #"{"backend": "vault", "passphraseCommand": "touch '\#(marker)'; echo planted-passphrase"}"#
        XCTAssertTrue(FileManager.default.createFile(atPath: config, contents: Data(json.utf8), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(chown(config, Self.nobody, Self.nobody), 0)
        let service = "org.rizq.clitests.config\(UUID().uuidString.prefix(6))"
        let environment = cli.headless(["RIZQ_SECRETS_CONFIG": config])
        for arguments in [["secret", "set", "--service", service, "token"], ["secret", "get", "--service", service, "token"], ["secret", "list", "--service", service]] {
            let result = try cli.run(arguments, stdin: Data("v".utf8), environment: environment)
            XCTAssertNotEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("refusing the secrets config file \(config): it belongs to user 65534 (nobody)"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "\(arguments[1]): root ran the command nobody's config names")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.secretsRoot + "/" + service), "no vault was made")
    }

    func testACredentialFolderLinkedToAFolderAnotherUserOwnsIsRefused() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.credlink\(UUID().uuidString.prefix(6))"
        let planted = try nobodysFolder(cli, "nobodys-credentials")
        let file = planted + "/\(service).token"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("planted-by-nobody".utf8), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(chown(file, Self.nobody, Self.nobody), 0)
        let link = cli.root + "/credentials"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: planted)
        let environment = cli.headless(["CREDENTIALS_DIRECTORY": link])
        let read = try cli.run(["secret", "get", "--service", service, "token"], environment: environment)
        XCTAssertNotEqual(read.status, 0, read.stderr)
        XCTAssertFalse(read.stdout.contains("planted"), read.stdout)
        XCTAssertTrue(read.stderr.contains("refusing the credential folder \(link) ($CREDENTIALS_DIRECTORY): it belongs to user 65534 (nobody)"), read.stderr)
        let listed = try cli.run(["secret", "list", "--service", service], environment: environment)
        XCTAssertNotEqual(listed.status, 0, listed.stdout)
        XCTAssertTrue(listed.stderr.contains("refusing the credential folder"), listed.stderr)
    }
}
