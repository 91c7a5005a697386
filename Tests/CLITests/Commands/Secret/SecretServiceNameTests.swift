import Foundation
import XCTest

/// Issue 50, item 22: a service name with a newline or a leading `-` became a vault folder of
/// that name. One name rule for every backend — any name `secret-tool` and Python's keyring
/// take (not empty, no NUL) — and every backend stores each such name faithfully: the vault and
/// plain text under a folder name no name can turn into a path, a line break or an option.
final class SecretServiceNameTests: XCTestCase {
    func testEveryBackendTakesTheSameNamesAndNoneBecomesADangerousFolder() throws {
        let cli = try CLIHarness()
        let passphrase = try cli.writeFile("passphrase", "names\n")
        let keyring = cli.root + "/keyrings/default.keyring"
        let names = ["line\nbreak", "-rf", "tab\there", "a/b", "..", ".", "%2Fb", "100%", "plain.service"]
        for backend in ["vault", "plaintext", "file-keyring"] {
            let environment = cli.headless([
                "RIZQ_SECRETS_BACKEND": backend, "RIZQ_SECRETS_PASSPHRASE_FILE": passphrase, "SECRET_FILE_TEST_PATH": keyring,
                "SECRET_FILE_TEST_PASSWORD": "pw",
            ])
            for (index, service) in names.enumerated() {
                let value = "\(backend)-\(index)"
                let set = try cli.run(["secret", "set", "--service=\(service)", "--", "token"], stdin: Data(value.utf8), environment: environment)
                XCTAssertEqual(set.status, 0, "\(backend) \(service.debugDescription): \(set.stderr)")
                let get = try cli.run(["secret", "get", "--service=\(service)", "--", "token"], environment: environment)
                XCTAssertEqual(get.stdout, value, "\(backend) \(service.debugDescription): \(get.stderr)")
            }
            // An empty name is refused alike (a NUL byte cannot come through a command line:
            // SecretInputTests asks the rule itself).
            let refused = try cli.run(["secret", "set", "--service", "", "--", "token"], stdin: Data("v".utf8), environment: environment)
            XCTAssertEqual(refused.status, 2, "\(backend): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("--service is empty"), refused.stderr)
        }
        // No folder of the secrets root is a path, a line, hidden or an option: each made for a
        // name that needs it starts with '%'.
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: cli.secretsRoot)) ?? []
        XCTAssertEqual(folders.count, names.count, "\(folders)")
        for folder in folders {
            XCTAssertFalse(folder.hasPrefix("-") || folder.hasPrefix(".") || folder.contains("\n") || folder.contains("\t"), folder.debugDescription)
        }
        XCTAssertTrue(folders.contains("plain.service") && folders.contains("100%"), "plain names keep the folder they always had: \(folders)")
        XCTAssertTrue(folders.contains("%%2Drf") && folders.contains("%a%2Fb") && folders.contains("%%252Fb"), "\(folders)")
    }
}
