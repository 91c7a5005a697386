import Foundation
import XCTest

/// `secret move` (first named `secret migrate`, which still works): 200 secrets from the vault to the keyring and back, each way killed with
/// SIGKILL 20 times at random steps and run again; every secret ends up moved exactly once, with
/// its bytes, and none is lost.
final class SecretMoveCommandTests: XCTestCase {
    static let count = 200
    static let killRounds = 20

    static func value(_ index: Int) -> String { "migrated-\(index)-\(String(index &* 2_654_435_761 & 0xFFFFFF, radix: 16))" }

    func testTwoHundredSecretsMoveBothWaysThroughTwentyKillsEach() throws {
        try requireSecretService()
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/age"), "age is missing: run scripts/install-deps")
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.migrate\(UUID().uuidString.prefix(6))"
        let keyFile = cli.root + "/vault-key.txt"
        var environment = cli.headless(["RIZQ_SECRETS_KEY_FILE": keyFile])
        // The keyring of the test session is there: the migration reaches it.
        environment["DBUS_SESSION_BUS_ADDRESS"] = cli.environment["DBUS_SESSION_BUS_ADDRESS"]
        environment["XDG_RUNTIME_DIR"] = cli.environment["XDG_RUNTIME_DIR"]
        defer { _ = try? runCommand("/usr/bin/secret-tool", ["clear", "service", service]) }

        // 200 secrets in a plain-text file written by hand, moved into the vault (a key-file slot,
        // so that Debian's age can read it back at the end).
        let folder = cli.secretsRoot + "/" + service
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var plain: [String: Any] = [:]
        for index in 0..<Self.count {
            plain["account-\(index)"] = ["data": Data(Self.value(index).utf8).base64EncodedString(), "isText": true, "label": "x", "created": "2026-11-26T10:00:00.000Z", "modified": "2026-11-26T10:00:00.000Z"]
        }
        try JSONSerialization.data(withJSONObject: plain).write(to: URL(fileURLWithPath: folder + "/plaintext.json"))
        // Secrets others can read are refused (issue 37, item 2): the file is the user's alone.
        XCTAssertEqual(chmod(folder + "/plaintext.json", 0o600), 0)
        let seeded = try cli.run(["secret", "migrate", "--service", service, "--from", "plaintext", "--to", "vault", "--delete-source"], environment: environment)
        XCTAssertTrue(seeded.stderr.contains("'secret migrate' is now 'secret move'"), "the old spelling works and points to the new one: \(seeded.stderr)")
        XCTAssertEqual(seeded.status, 0, seeded.stderr)
        try checkVault(folder: folder, keyFile: keyFile)

        // The vault to the keyring, killed 20 times, then finished.
        try moveWithKills(cli, service, from: "vault", to: "secret-service", environment)
        let keyringItems = try runCommand("/usr/bin/secret-tool", ["search", "--all", "service", service])
        XCTAssertEqual(keyringItems.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("[/") }.count, Self.count, "each secret once in the keyring")
        XCTAssertEqual(try cli.run(["secret", "list", "--service", service, "--backend", "vault"], environment: environment).stdout, "", "none left in the vault")
        for index in [0, 57, 199] {
            XCTAssertEqual(try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "account-\(index)"]).stdout, Self.value(index))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/migration.journal"), "the journal goes when the migration is done")

        // And back, killed 20 times again.
        try moveWithKills(cli, service, from: "secret-service", to: "vault", environment)
        XCTAssertEqual(try runCommand("/usr/bin/secret-tool", ["search", "--all", "service", service]).stdout, "", "none left in the keyring")
        try checkVault(folder: folder, keyFile: keyFile)
        let report = try cli.run(["secret", "backends", "--json", "--service", service], environment: environment)
        XCTAssertTrue(report.stdout.contains(#""writeTarget":{"backend":"vault","origin":"remembered""#), report.stdout)
    }

    /// Starts the migration 20 times, each killed with SIGKILL after a random number (1–8) of the
    /// steps it printed, then once to its end.
    private func moveWithKills(_ cli: CLIHarness, _ service: String, from: String, to: String, _ environment: [String: String?]) throws {
        var full = cli.environment
        for (name, value) in environment { full[name] = value }
        var kills = 0
        for _ in 0..<Self.killRounds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
            process.arguments = ["secret", "move", "--service", service, "--from", from, "--to", to, "--delete-source"]
            process.environment = full
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let killAfter = Int.random(in: 1...8)
            var steps = 0
            readLines(of: output.fileHandleForReading) { _ in
                steps += 1
                guard steps >= killAfter else { return true }
                kill(process.processIdentifier, SIGKILL)
                kills += 1
                return false
            }
            process.waitUntilExit()
        }
        XCTAssertEqual(kills, Self.killRounds, "every round was killed mid-way (200 secrets take more than 20 × 8 steps)")
        let finished = try cli.run(["secret", "move", "--service", service, "--from", from, "--to", to, "--delete-source"], environment: environment)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stdout.contains("resumed an interrupted move"), finished.stdout.suffix(300).description)
        XCTAssertFalse(finished.stdout.split(separator: "\n").contains { $0.hasPrefix("conflict ") }, finished.stdout)
        XCTAssertTrue(finished.stdout.contains("conflicts 0"), finished.stdout)
    }

    /// The vault, decrypted by Debian's age with the key file, holds exactly the 200 secrets.
    private func checkVault(folder: String, keyFile: String) throws {
        let decrypted = try runProcess("/usr/bin/age", ["-d", "-i", keyFile, folder + "/vault.age"])
        XCTAssertEqual(decrypted.status, 0, String(decoding: decrypted.stderr, as: UTF8.self))
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: decrypted.stdout) as? [String: Any])
        let items = try XCTUnwrap(sealed["items"] as? [String: [String: Any]])
        XCTAssertEqual(items.count, Self.count)
        for index in 0..<Self.count {
            let data = (items["account-\(index)"]?["data"] as? String).flatMap { Data(base64Encoded: $0) }
            XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, Self.value(index), "account-\(index)")
        }
    }
}
