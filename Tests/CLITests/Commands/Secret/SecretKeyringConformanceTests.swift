import Foundation
import XCTest

/// Python keyring's backend tests (`BackendBasicTests`), asked of `rizq-prefs secret` as a
/// script would drive it: `--service=NAME`, the account after `--`, the password on stdin with
/// `--raw`. Any name keyring can store, the CLI can store, and it reads back byte for byte.
final class SecretKeyringConformanceTests: XCTestCase {
    private var cli: CLIHarness!

    override func setUpWithError() throws {
        try requireSecretService()
        cli = try CLIHarness()
    }

    override func tearDown() {
        cli = nil
    }

    private func set(_ service: String, _ account: String, _ password: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try cli.run(["secret", "set", "--service=" + service, "--raw", "--", account], stdin: Data(password.utf8))
        XCTAssertEqual(result.status, 0, "set \(service.debugDescription) \(account.debugDescription): \(result.stderr)", file: file, line: line)
    }

    /// The password, or `nil` when the command says there is none (exit 1).
    private func get(_ service: String, _ account: String, file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        let result = try cli.run(["secret", "get", "--service=" + service, "--", account])
        if result.status == 1 { return nil }
        XCTAssertEqual(result.status, 0, "get \(service.debugDescription) \(account.debugDescription): \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    /// Whether there was an item to delete (exit 0), or none (exit 1).
    private func delete(_ service: String, _ account: String, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let result = try cli.run(["secret", "delete", "--service=" + service, "--", account])
        XCTAssertTrue(result.status == 0 || result.status == 1, result.stderr, file: file, line: line)
        return result.status == 0
    }

    private func checkSetGet(_ service: String, _ account: String, _ password: String, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let context = "seed \(seed): service \(service.debugDescription), account \(account.debugDescription)"
        XCTAssertNil(try get(service, account), context, file: file, line: line)
        try set(service, account, password, file: file, line: line)
        XCTAssertEqual(try get(service, account), password, context, file: file, line: line)
        try set(service, account, "", file: file, line: line)
        XCTAssertEqual(try get(service, account), "", "the empty password: \(context)", file: file, line: line)
        XCTAssertTrue(try delete(service, account), context, file: file, line: line)
    }

    func testPasswordSetGet() throws {
        var text = KeyringText(seed: 21)
        try checkSetGet("org.rizq.clitests." + text.string(), text.string(), text.string(), seed: 21)
    }

    func testDifficultCharactersInEveryName() throws {
        for seed: UInt64 in 22...26 {
            var text = KeyringText(seed: seed)
            let (service, account) = (text.string(from: KeyringText.difficult), text.string(from: KeyringText.difficult))
            try checkSetGet(service, account, text.string(from: KeyringText.difficult), seed: seed)
        }
        // What an option parser trips on, as names: each must be taken as it is.
        for (seed, name) in ["-", "--", "-7", "--help", "-h", "--raw", "\u{E000}-7", "\u{E000}", "a=b", " "].enumerated() {
            try checkSetGet("org.rizq.clitests.odd" + name, name, name, seed: UInt64(100 + seed))
        }
    }

    func testUnicodeAndMixedCharacters() throws {
        var text = KeyringText(seed: 27)
        try checkSetGet(text.string(from: KeyringText.unicode), text.string(from: KeyringText.unicode), text.string(from: KeyringText.unicode), seed: 27)
        for seed: UInt64 in 28...30 {
            var text = KeyringText(seed: seed)
            try checkSetGet(text.mixed(), text.mixed(), text.mixed(), seed: seed)
        }
    }

    func testSetAfterSetBlank() throws {
        let service = "org.rizq.clitests.blank\(UUID().uuidString.prefix(8))"
        try set(service, "user", "")
        try set(service, "user", "non-blank")
        XCTAssertEqual(try get(service, "user"), "non-blank")
        XCTAssertEqual(try cli.run("secret", "list", "--service", service).stdout, "user\n")
    }

    func testDeletePresentNotPresentAndOneInGroup() throws {
        var text = KeyringText(seed: 31)
        let service = text.string(from: KeyringText.difficult)
        let (first, second) = (text.string(from: KeyringText.difficult), text.string(from: KeyringText.difficult))
        let password = text.string(from: KeyringText.difficult)
        XCTAssertFalse(try delete(service, first), "not present: exit 1")
        try set(service, first, password)
        try set(service, second, password)
        XCTAssertTrue(try delete(service, first))
        XCTAssertNil(try get(service, first))
        XCTAssertEqual(try get(service, second), password)
        XCTAssertTrue(try delete(service, second))
    }

    func testDifferentUsersAndServices() throws {
        let prefix = "org.rizq.clitests.\(UUID().uuidString.prefix(8))."
        try set(prefix + "service1", "user1", "password1")
        try set(prefix + "service1", "user2", "password2")
        XCTAssertEqual(try get(prefix + "service1", "user1"), "password1")
        XCTAssertEqual(try get(prefix + "service1", "user2"), "password2")
        try set(prefix + "service2", "user3", "password3")
        XCTAssertEqual(try get(prefix + "service1", "user1"), "password1")
        XCTAssertNil(try get(prefix + "service1", "user3"), "another service's account")
        XCTAssertNil(try get(prefix + "service1", "nobody!"), "a wrong account reads as absent")
    }

    func testEmptyAccount() throws {
        let service = "org.rizq.clitests.empty\(UUID().uuidString.prefix(8))"
        try set(service, "", "password1")
        XCTAssertEqual(try get(service, ""), "password1")
        XCTAssertEqual(try cli.run("secret", "list", "--service", service, "--json").stdout, "[\"\"]\n")
        XCTAssertTrue(try delete(service, ""))
    }

    func testWithoutRawExactlyOneTrailingNewlineIsDropped() throws {
        let service = "org.rizq.clitests.newline\(UUID().uuidString.prefix(8))"
        let cases: [(stdin: String, stored: String)] = [
            ("token\n", "token"), ("token\n\n", "token\n"), ("token\r", "token\r"), ("token\r\n", "token\r"),
            ("token", "token"), ("\n", ""), ("", ""), (" token \t", " token \t"),
        ]
        for (stdin, stored) in cases {
            let result = try cli.run(["secret", "set", "--service", service, "token"], stdin: Data(stdin.utf8))
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try get(service, "token"), stored, "stdin \(stdin.debugDescription)")
            try set(service, "token", stdin)
            XCTAssertEqual(try get(service, "token"), stdin, "--raw keeps \(stdin.debugDescription)")
        }
    }

    func testNamesThatLookLikeNegativeNumbersOrOptionsAreKeptExactly() throws {
        let service = "org.rizq.clitests.argv\(UUID().uuidString.prefix(8))"
        // A negative number needs no `--`; a name that starts with U+E000 (which the old
        // negative-number mark was) or looks like an option is taken after `--` as it is.
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "-7"], stdin: Data("minus seven".utf8)).status, 0)
        try set(service, "\u{E000}-7", "private use")
        try set(service, "--help", "help")
        XCTAssertEqual(try cli.run("secret", "list", "--service", service, "--json").stdout, "[\"--help\",\"-7\",\"\u{E000}-7\"]\n")
        XCTAssertEqual(try cli.run("secret", "get", "--service", service, "-7").stdout, "minus seven")
        XCTAssertEqual(try get(service, "\u{E000}-7"), "private use")
        let tool = try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "\u{E000}-7"])
        XCTAssertEqual(tool.stdout, "private use", "secret-tool finds the name as typed")
        // A service name that starts with '-' works as --service -x and as --service=-x.
        XCTAssertEqual(try cli.run(["secret", "set", "--service", "-odd-service", "k"], stdin: Data("v".utf8)).status, 0)
        XCTAssertEqual(try get("-odd-service", "k"), "v")
        XCTAssertTrue(try delete("-odd-service", "k"))
        // The same words as suite keys.
        XCTAssertEqual(try cli.run("set", "--int", "--", "\u{E000}-7", "-8").status, 0)
        XCTAssertEqual(try cli.run("get", "--", "\u{E000}-7").stdout, "-8\n")
        XCTAssertEqual(try cli.run("list", "--json").stdout, "{\"\u{E000}-7\":-8}\n")
    }

    func testASecretGivenAsAnArgumentIsRefusedWithoutEchoingIt() throws {
        let service = "org.rizq.clitests.arg\(UUID().uuidString.prefix(8))"
        let secret = "argv-canary-\(UUID().uuidString)"
        for arguments in [["token", secret], ["token", "--" + secret], ["token", secret, "second"], ["--label", "L", "token", "-" + secret]] {
            let result = try cli.run(["secret", "set", "--service", service] + arguments, stdin: Data("from stdin".utf8))
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertFalse(result.stderr.contains(secret) || result.stdout.contains(secret), "the argument was echoed: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("reads the secret from stdin"), result.stderr)
        }
        XCTAssertNil(try get(service, "token"), "nothing was stored")
    }
}
