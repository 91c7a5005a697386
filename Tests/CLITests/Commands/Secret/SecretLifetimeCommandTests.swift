import Foundation
import XCTest

/// `secret set --expires/--refresh-token-file`, `secret list --long`, `secret get` of an expired
/// secret and `--refresh-token` (issue 49, item 3), on a machine with no desktop: each step a new
/// process, and the vault decrypted with Debian's `systemd-creds` and `age` to see what it keeps.
final class SecretLifetimeCommandTests: XCTestCase {
    func testExpiryAndRefreshTokenThroughTheCommandLineAndInTheVault() throws {
        try requireRoot()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.lifetime\(UUID().uuidString.prefix(6))"
        let environment = cli.headless(systemd: true)
        let tokenFile = cli.root + "/refresh-token"
        try Data("the-refresh-token\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        func run(_ arguments: String..., stdin: String? = nil) throws -> CLIResult {
            try cli.run(Array(arguments), stdin: stdin.map { Data($0.utf8) }, environment: environment)
        }

        var result = try run("secret", "set", "--service", service, "live", "--expires", "2100-01-01T00:00:00Z", "--refresh-token-file", tokenFile, stdin: "access-live")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try run("secret", "set", "--service", service, "stale", "--expires", "@1000000000", stdin: "access-stale")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try run("secret", "set", "--service", service, "plain", stdin: "access-plain")
        XCTAssertEqual(result.status, 0, result.stderr)

        XCTAssertEqual(try run("secret", "get", "--service", service, "live").stdout, "access-live")
        let stale = try run("secret", "get", "--service", service, "stale")
        XCTAssertEqual(stale.status, 1)
        XCTAssertEqual(stale.stdout, "")
        XCTAssertTrue(stale.stderr.contains("expired at 2001-09-09T01:46:40Z and is no longer served"), stale.stderr)
        XCTAssertEqual(try run("secret", "get", "--service", service, "--refresh-token", "live").stdout, "the-refresh-token")
        let noToken = try run("secret", "get", "--service", service, "--refresh-token", "plain")
        XCTAssertEqual(noToken.status, 1)
        XCTAssertTrue(noToken.stderr.contains("has no refresh token"), noToken.stderr)

        // Names only, as before; --long shows the expiry; its JSON says the same.
        XCTAssertEqual(try run("secret", "list", "--service", service).stdout, "live\nplain\nstale\n")
        XCTAssertEqual(try run("secret", "list", "--service", service, "--long").stdout, """
            ACCOUNT  EXPIRES                       REFRESH TOKEN
            live     2100-01-01T00:00:00Z          yes
            plain    -                             no
            stale    expired 2001-09-09T01:46:40Z  no

            """)
        let json = try run("secret", "list", "--service", service, "--long", "--json")
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], json.stdout)
        XCTAssertEqual(rows.map { $0["account"] as? String }, ["live", "plain", "stale"])
        XCTAssertEqual(rows.map { $0["expired"] as? Bool }, [false, false, true])
        XCTAssertEqual(rows[0]["expires"] as? String, "2100-01-01T00:00:00Z")
        XCTAssertTrue(rows[1]["expires"] is NSNull)
        XCTAssertEqual(rows.map { $0["refreshToken"] as? Bool }, [true, false, false])
        XCTAssertFalse(json.stdout.contains("access-") || json.stdout.contains("the-refresh-token"), "a listing never shows a secret")

        // The vault keeps both inside its encrypted items: Debian's tools decrypt them.
        let folder = cli.secretsRoot + "/" + service
        let recovery = try runProcess("/bin/sh", ["-c", "cd \"$1\" && systemd-creds decrypt --name=rizq-prefs.$2.identity slots/systemd.cred - 2>/dev/null | age -d -i - vault.age", "sh", folder, service])
        XCTAssertEqual(recovery.status, 0)
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: recovery.stdout) as? [String: Any])
        let items = try XCTUnwrap(sealed["items"] as? [String: [String: Any]])
        XCTAssertEqual(items["live"]?["expires"] as? String, "2100-01-01T00:00:00.000Z")
        XCTAssertEqual(items["live"]?["refreshToken"] as? String, "the-refresh-token")
        XCTAssertNil(items["plain"]?["expires"])
        XCTAssertEqual(filesLeaking("the-refresh-token", under: cli.secretsRoot), [], "the refresh token is in no file in clear")

        // Storing again without --expires: served again, the lifetime gone.
        result = try run("secret", "set", "--service", service, "stale", stdin: "renewed")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try run("secret", "get", "--service", service, "stale").stdout, "renewed")
    }

    /// A time or token file that cannot be used: exit 2, the error says what to give, nothing stored.
    func testBadExpiriesAndTokenFilesAreRefusedAndStoreNothing() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.badlifetime\(UUID().uuidString.prefix(6))"
        let passphrase = cli.root + "/passphrase"
        try Data("lifetime passphrase\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        chmod(passphrase, 0o600)
        let environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])
        let big = cli.root + "/big-token"
        try Data(repeating: 0x61, count: 70_000).write(to: URL(fileURLWithPath: big))
        let cases: [([String], String)] = [
            (["--expires", "tomorrow"], "is not a time"),
            (["--expires", "2027-01-31T12:00:00"], "is not a time"),
            (["--expires", "@-5"], "is not a time"),
            (["--expires", "+99999999999999"], "is not a time"),
            (["--refresh-token-file", cli.root + "/missing"], "cannot read the refresh token file"),
            (["--refresh-token-file", big], "larger than 64 KiB"),
        ]
        for (options, message) in cases {
            let result = try cli.run(["secret", "set", "--service", service, "token"] + options, stdin: Data("v".utf8), environment: environment)
            XCTAssertEqual(result.status, 2, "\(options): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.secretsRoot + "/" + service + "/vault.age"), "nothing was stored")
    }
}
