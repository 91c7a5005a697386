import Foundation
import XCTest

/// `secret unlock` / `secret lock` (the kernel-keyring cache), with keyctl allowed and refused,
/// and `secret export-credential`.
final class SecretUnlockCommandTests: XCTestCase {
    /// Unlock once with the passphrase; later processes with no key source read through the
    /// cache; lock forgets it for all of them.
    func testUnlockCachesTheKeyForLaterProcessesAndLockForgetsIt() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.unlock\(UUID().uuidString.prefix(6))"
        let withPassphrase = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")])
        // No vault yet: unlock makes it (with the passphrase slot) and makes it the write target.
        let unlocked = try cli.run(["secret", "unlock", "--service", service, "--timeout", "1h"], environment: withPassphrase)
        XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
        XCTAssertTrue(unlocked.stdout.contains("made the vault"), unlocked.stdout)
        XCTAssertTrue(unlocked.stdout.contains("the key is cached in the"), unlocked.stdout)
        XCTAssertTrue(unlocked.stdout.contains("for 3600 s"), unlocked.stdout)
        defer { _ = try? cli.run(["secret", "lock", "--service", service], environment: cli.headless()) }

        let noKeySource = cli.headless()
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "token"], stdin: Data("cached".utf8), environment: noKeySource).status, 0)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "token"], environment: noKeySource).stdout, "cached")

        let locked = try cli.run(["secret", "lock", "--service", service], environment: noKeySource)
        XCTAssertEqual(locked.stdout, "forgot the cached key of \(service)\n")
        let after = try cli.run(["secret", "get", "--service", service, "token"], environment: noKeySource)
        XCTAssertEqual(after.status, 4, "locked again: nothing here opens the vault")
        XCTAssertTrue(after.stderr.contains("no key source"), after.stderr)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "token"], environment: withPassphrase).stdout, "cached")
    }

    /// keyctl refused by a seccomp filter (as Docker's default profile does): unlock says the key
    /// is not cached and why, and the chain still stores and reads through the passphrase.
    func testWithKeyctlRefusedTheChainStillWorks() throws {
        try requireRoot()
        let noKeyctl = repositoryRoot().appendingPathComponent("scripts/no-keyctl").path
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.seccomp\(UUID().uuidString.prefix(6))"
        let environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")])
        var full = cli.environment
        for (name, value) in environment { full[name] = value }
        let run = { (arguments: [String], input: String?) throws -> (status: Int32, stdout: String, stderr: String) in
            try runCommand(noKeyctl, [CLIHarness.binary] + arguments, input: input, environment: full.compactMapValues { $0 })
        }
        let unlock = try run(["secret", "unlock", "--service", service], nil)
        XCTAssertEqual(unlock.status, 0, unlock.stderr)
        XCTAssertTrue(unlock.stdout.contains("not cached") && unlock.stdout.contains("Operation not permitted"), unlock.stdout)
        XCTAssertEqual(try run(["secret", "set", "--service", service, "token"], "in-a-container").status, 0)
        XCTAssertEqual(try run(["secret", "get", "--service", service, "token"], nil).stdout, "in-a-container")
        let backends = try run(["secret", "backends", "--service", service], nil)
        XCTAssertTrue(backends.stdout.contains("* vault: available"), backends.stdout)
    }

    /// export-credential: the secret sealed by systemd-creds under the name given; systemd-creds
    /// gives it back only under that name; the secret never in an argument list (strace).
    func testExportCredentialSealsTheSecretForLoadCredentialEncrypted() throws {
        try requireRoot()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.export\(UUID().uuidString.prefix(6))"
        // A host key of the test's own (systemd-creds honours SYSTEMD_CREDENTIAL_SECRET).
        var environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")])
        environment["SYSTEMD_CREDENTIAL_SECRET"] = cli.root + "/host.secret"
        let secret = "export-\(UUID().uuidString)"
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "database.password"], stdin: Data(secret.utf8), environment: environment).status, 0)
        let name = "\(service).database.password"
        let trace = cli.root + "/strace.log"
        var full = cli.environment
        for (key, value) in environment { full[key] = value }
        let exported = try runProcess(
            "/usr/bin/strace", ["-f", "-qq", "-e", "trace=execve", "-s", "4096", "-o", trace, CLIHarness.binary, "secret", "export-credential", "--service", service, "database.password", "--name", name, "--with-key", "host"],
            environment: full.compactMapValues { $0 })
        XCTAssertEqual(exported.status, 0, String(decoding: exported.stderr, as: UTF8.self))
        let credential = exported.stdout
        XCTAssertFalse(credential.isEmpty)
        let log = try String(contentsOfFile: trace, encoding: .utf8)
        XCTAssertTrue(log.contains("systemd-creds"), "it ran systemd-creds: \(log.prefix(500))")
        for form in leakForms(of: secret) { XCTAssertNil(log.data(using: .utf8)?.range(of: form), "the secret is in an argument list") }

        let decrypted = try runProcess("/usr/bin/systemd-creds", ["decrypt", "--name=\(name)", "-", "-"], input: credential, environment: full.compactMapValues { $0 })
        XCTAssertEqual(String(decoding: decrypted.stdout, as: UTF8.self), secret)
        let renamed = try runProcess("/usr/bin/systemd-creds", ["decrypt", "--name=other", "-", "-"], input: credential, environment: full.compactMapValues { $0 })
        XCTAssertNotEqual(renamed.status, 0, "the name is checked")
        // Delivered as systemd would (a file named after the credential), the chain reads it.
        let folder = cli.root + "/credentials"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try decrypted.stdout.write(to: URL(fileURLWithPath: folder + "/" + name))
        let delivered = try cli.run(["secret", "get", "--service", service, "database.password", "--backend", "credentials"], environment: ["CREDENTIALS_DIRECTORY": folder])
        XCTAssertEqual(delivered.stdout, secret)
        let missing = try cli.run(["secret", "export-credential", "--service", service, "nope", "--name", "x"], environment: environment)
        XCTAssertEqual(missing.status, 1)
    }
}
