import Foundation
import RizqPrefs
import XCTest

/// secret set/get/delete/list against the real Secret Service of the test session.
final class SecretCommandTests: XCTestCase {
    func testASecretGivenOnStdinIsStoredReadListedAndDeletedAndAppearsNowhereElse() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.\(UUID().uuidString.prefix(8))"
        let secret = "cli-canary-\(UUID().uuidString)"
        try cli.run("set", "theme_mode", "dark")

        let stored = try cli.run("secret", "set", "--service", service, "auth_token", "--label", "RIZQ sign-in", stdin: secret + "\n")
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let read = try cli.run("secret", "get", "--service", service, "auth_token")
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, secret, "exact bytes: the trailing newline of stdin dropped, none added for a pipe")
        // secret-tool sees the same item.
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        tool.arguments = ["lookup", "service", service, "account", "auth_token"]
        let pipe = Pipe()
        tool.standardOutput = pipe
        try tool.run()
        XCTAssertEqual(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), secret)
        tool.waitUntilExit()

        let listed = try cli.run("secret", "list", "--service", service)
        XCTAssertEqual(listed.stdout, "auth_token\n")
        XCTAssertEqual(try cli.run("secret", "list", "--service", service, "--json").stdout, "[\"auth_token\"]\n")

        // Never in a suite file, nor in what list/export/suites print.
        XCTAssertEqual(cli.filesContaining(secret), [])
        for arguments in [["list"], ["list", "--json"], ["export"], ["suites"], ["secret", "list", "--service", service]] {
            let output = try cli.run(arguments)
            XCTAssertFalse(output.stdout.contains(secret) || output.stderr.contains(secret), "\(arguments) showed the secret")
        }

        XCTAssertEqual(try cli.run("secret", "delete", "--service", service, "auth_token").status, 0)
        let gone = try cli.run("secret", "get", "--service", service, "auth_token")
        XCTAssertEqual(gone.status, 1)
        XCTAssertEqual(gone.stdout, "")
        XCTAssertTrue(gone.stderr.contains("no secret 'auth_token'"), gone.stderr)
        XCTAssertEqual(try cli.run("secret", "delete", "--service", service, "auth_token").status, 1)
    }

    func testBinarySecretsAndTheDefaultServiceIsTheAppID() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        cli.environment["RIZQ_PREFS_APP_ID"] = "org.rizq.clitests.app\(UUID().uuidString.prefix(6))"
        let bytes = Data([0, 1, 2, 0xFF, 0, 0x80])
        XCTAssertEqual(try cli.run(["secret", "set", "device_key"], stdin: bytes).status, 0)
        XCTAssertEqual(try cli.run("secret", "get", "device_key").stdoutBytes, bytes)
        XCTAssertEqual(try cli.run("secret", "list").stdout, "device_key\n")
        XCTAssertEqual(try cli.run("secret", "delete", "device_key").status, 0)
    }

    func testOnATerminalTheSecretIsAskedForWithoutEcho() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.tty\(UUID().uuidString.prefix(6))"
        let secret = "typed-\(UUID().uuidString.prefix(12))"
        // script(1) gives the command a terminal; what it shows comes back on stdout. The typing
        // waits for the prompt, which shows once echo is off.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "timeout 60 script -qec \"'$CLI' secret set --service '$SERVICE' token\" /dev/null"]
        shell.environment = cli.environment.merging(["CLI": CLIHarness.binary, "SERVICE": service]) { $1 }
        let keyboard = Pipe()
        let pipe = Pipe()
        shell.standardInput = keyboard
        shell.standardOutput = pipe
        try shell.run()
        var screen = ""
        while !screen.contains("Secret for 'token':") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            screen += String(decoding: chunk, as: UTF8.self)
        }
        keyboard.fileHandleForWriting.write(Data((secret + "\n").utf8))
        try keyboard.fileHandleForWriting.close()
        screen += String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0, screen)
        XCTAssertTrue(screen.contains("Secret for 'token':"), "a prompt: \(screen)")
        XCTAssertFalse(screen.contains(secret), "the typed secret was echoed: \(screen)")
        XCTAssertEqual(try cli.run("secret", "get", "--service", service, "token").stdout, secret)
        XCTAssertEqual(try cli.run("secret", "delete", "--service", service, "token").status, 0)
    }

    func testEmptySecretsAreStoredAndSecretsAsArgumentsAreRefused() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.empty\(UUID().uuidString.prefix(6))"
        // An empty secret is a secret, as for secret-tool and keyring.
        XCTAssertEqual(try cli.run("secret", "set", "--service", service, "token", stdin: "").status, 0)
        let read = try cli.run("secret", "get", "--service", service, "token")
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdoutBytes, Data())
        // There is no argument that takes the value: it can only come on stdin.
        XCTAssertEqual(try cli.run("secret", "set", "--service", service, "token", "the-value", stdin: "x").status, 2)
        XCTAssertEqual(try cli.run("secret", "get", "--service", service, "token").stdoutBytes, Data(), "the refused command stored nothing")
    }

    /// Without a session bus, the Secret Service alone (`--backend secret-service`) says so and
    /// how to fix it; the chain looks elsewhere (SecretChainCommandTests) and finds nothing here.
    func testWithoutASessionBusTheSecretServiceSaysSoAndTheChainGoesOn() throws {
        let cli = try CLIHarness()
        let noBus: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": "/nonexistent", "RIZQ_SECRETS_DIR": cli.root + "/secrets"]
        let result = try cli.run(["secret", "get", "--service", "org.rizq.clitests", "token", "--backend", "secret-service"], environment: noBus)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertTrue(result.stderr.contains("no D-Bus session bus") && result.stderr.contains("dbus-run-session"), result.stderr)
        let chain = try cli.run(["secret", "get", "--service", "org.rizq.clitests", "token"], environment: noBus)
        XCTAssertEqual(chain.status, 1, "no backend has it, and every backend that is there could look: \(chain.stderr)")
    }
}
