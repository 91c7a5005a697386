import Foundation
import XCTest

/// Issue 37, item 7, in the command-line tool: once a `secret` command runs, the process cannot
/// be dumped or traced by the user's other processes (seen from outside: `/proc/PID` becomes
/// root's), and Ctrl-C at the secret's prompt leaves the terminal echoing.
final class SecretProcessHygieneTests: XCTestCase {
    /// Run as `nobody`, `secret get` asks a passphrase command, which looks at the owner of its
    /// parent's (the tool's) `/proc/PID/status`: root's (0) when the tool made itself
    /// undumpable, nobody's (65534) otherwise.
    func testASecretCommandCannotBeDumpedWhileItHoldsTheKey() throws {
        try requireRoot()
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { throw XCTSkip("runuser is not installed") }
        let cli = try CLIHarness()
        let home = cli.root + "/nobody"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(home, 65_534, 65_534), 0)
        XCTAssertEqual(chmod(cli.root, 0o755), 0)
        let passphrase = home + "/passphrase"
        XCTAssertTrue(FileManager.default.createFile(atPath: passphrase, contents: Data("nobody's passphrase\n".utf8), attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(chown(passphrase, 65_534, 65_534), 0)
        let binary = try reachableByEveryUser(CLIHarness.binary)
        let service = "org.rizq.clitests.dumpable\(UUID().uuidString.prefix(6))"
        func asNobody(_ arguments: [String], command: String) throws -> (status: Int32, stdout: String, stderr: String) {
            let variables = [
                "HOME=\(home)", "RIZQ_SECRETS_DIR=\(home)/secrets", "RIZQ_SECRETS_CONFIG=\(home)/secrets.json", "XDG_STATE_HOME=\(home)/state",
                "RIZQ_SECRETS_SYSTEMD_CREDS=0", "RIZQ_SECRETS_KEYRING_CACHE=0", "RIZQ_SECRETS_PASSPHRASE_COMMAND=\(command)", "RIZQ_PREFS_HOME=\(home)/prefs",
                "PATH=/usr/bin:/bin",
            ]
            return try runCommand("/usr/sbin/runuser", ["-u", "nobody", "--", "/usr/bin/env", "-i"] + variables + [binary] + arguments, input: "v")
        }
        let plain = "cat '\(passphrase)'"
        let stored = try asNobody(["secret", "set", "--service", service, "token"], command: plain)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let probe = "stat -c %u /proc/$PPID/status > '\(home)/owner'; cat '\(passphrase)'"
        let read = try asNobody(["secret", "get", "--service", service, "token"], command: probe)
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, "v")
        XCTAssertEqual(try String(contentsOfFile: home + "/owner", encoding: .utf8), "0\n", "the tool's /proc entries are root's: it is not dumpable")

        // Issue 50, item 7: `import-app` (storing what it imports) and `doctor` (reading the
        // chain) unlock the vault too, and were dumpable while they did.
        let dump = home + "/dump.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: dump, contents: Data(#"{"access_token": "\#(FakeToken.jwt(subject: "hygiene"))"}"#.utf8), attributes: [.posixPermissions: 0o644]))
        for arguments in [["import-app", dump, "--app", "com.rizq.hygiene", "--service", service], ["doctor", "--service", service]] {
            try? FileManager.default.removeItem(atPath: home + "/owner")
            let result = try asNobody(arguments, command: probe)
            XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/owner"), "\(arguments[0]) unlocked the vault: \(result.stderr)")
            XCTAssertEqual(try? String(contentsOfFile: home + "/owner", encoding: .utf8), "0\n", "\(arguments[0]) is not dumpable while it holds the key")
        }
    }

    /// Ctrl-C at `secret set`'s prompt (echo off): the tool ends by SIGINT, and the terminal
    /// echoes again.
    func testCtrlCAtTheSecretPromptLeavesTheTerminalEchoing() throws {
        let cli = try CLIHarness()
        let script = repositoryRoot().appendingPathComponent("Tests/RizqVaultTests/Scripts/pty-interrupt.py").path
        let passphrase = try cli.writeFile("passphrase", "prompted\n")
        var environment = cli.environment
        for (name, value) in cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase]) { environment[name] = value }
        let result = try runProcess("/usr/bin/python3", [script, "Secret for 'token'", CLIHarness.binary, "secret", "set", "--service", "org.rizq.clitests.prompt", "token"],
                                    environment: environment)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        XCTAssertEqual(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init), ["echo on", "signal 2"])
    }
}
