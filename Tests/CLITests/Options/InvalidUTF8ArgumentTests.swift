import Foundation
import XCTest

/// Issue 29, item 8: bytes that are not UTF-8 in a key, a value or a name on the command line
/// (or on stdin) are refused with exit 2 — never repaired into U+FFFD, which made `$'\xff'` and
/// `$'\xfe'` the same key.
final class InvalidUTF8ArgumentTests: XCTestCase {
    /// Runs `rizq-prefs` from bash, so that the arguments can hold any bytes (`$'\xff'`).
    private func bash(_ cli: CLIHarness, _ commandLine: String, stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = cli.environment
        environment["RIZQ_CLI"] = CLIHarness.binary
        let result = try runProcess("/bin/bash", ["-c", #""$RIZQ_CLI" "# + commandLine], input: stdin, environment: environment)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    func testInvalidUTF8ArgumentsAreRefused() throws {
        let cli = try CLIHarness()
        let attempts = [
            #"set $'\xff' a"#, #"set $'\xfe' b"#, #"set key $'caf\xe9'"#, #"set $'ok\xc3' v"#, #"get $'\xff'"#, #"delete $'\xfe'"#,
            #"set --suite $'group.\xff' k v"#, #"set --app $'com.\xfe' k v"#, #"list --suite $'group.\x80'"#,
            #"secret set --service org.rizq.test $'\xff'"#, #"secret get --service $'\xfe' k"#, #"import $'/tmp/\xff.json'"#,
        ]
        for attempt in attempts {
            let result = try bash(cli, attempt)
            XCTAssertEqual(result.status, 2, "\(attempt): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is not valid UTF-8"), "\(attempt): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("\u{FFFD}"), "\(attempt): the argument is not repeated, repaired: \(result.stderr)")
        }
        // Nothing was written: no key, no suite file, no folder.
        XCTAssertEqual(try cli.run("list", "--json").stdout, "{}\n")
        XCTAssertNil(cli.bytes(cli.standardPath))
        // The message names the argument and the byte, never the argument's text.
        let named = try bash(cli, #"set key $'v\xe9'"#)
        XCTAssertTrue(named.stderr.contains("argument 3 is not valid UTF-8 text (byte 0xE9 at offset 1)"), named.stderr)
    }

    func testValidUnicodeArgumentsStillWork() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try bash(cli, #"set $'caf\xc3\xa9' $'\xf0\x9f\x98\x80'"#).status, 0)
        XCTAssertEqual(try cli.run("get", "café").stdout, "😀\n")
        XCTAssertEqual(try cli.run("set", "--suite", "Mein Profil (ü)", "k", "v").status, 0, "any UTF-8 name but the refused ones")
    }

    func testInvalidUTF8OnStdinIsRefused() throws {
        let cli = try CLIHarness()
        for input in [Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), Data(#"{"k": "a"#.utf8) + Data([0xFE]) + Data(#""}"#.utf8)] {
            let imported = try cli.run(["import", "-"], stdin: input)
            XCTAssertEqual(imported.status, 2, imported.stderr)
            XCTAssertTrue(imported.stderr.contains("not valid UTF-8"), imported.stderr)
            let migrated = try cli.run(["import-app", "-", "--dry-run"], stdin: input)
            XCTAssertEqual(migrated.status, 2, migrated.stderr)
            XCTAssertTrue(migrated.stderr.contains("not UTF-8"), migrated.stderr)
        }
        XCTAssertEqual(try cli.run("list", "--json").stdout, "{}\n")
    }
}
