import Foundation
import XCTest

/// The errors a new user meets first, each one line on stderr that says what to do, with the
/// documented exit status — and nothing written.
final class ErrorMessageTests: XCTestCase {
    func testAnUnknownTypeListsTheTypesAndTheNearestOne() throws {
        let cli = try CLIHarness()
        let result = try cli.run("set", "streak", "1", "--type", "integer")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("the types are bool, int, double, string, date, data, json"), result.stderr)
        XCTAssertTrue(result.stderr.contains("did you mean 'int'"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line")
        XCTAssertNil(cli.bytes(cli.standardPath), "nothing written")
        XCTAssertTrue(try cli.run("set", "ratio", "1", "--type", "Float").stderr.contains("did you mean 'double'"))
    }

    func testAFlagNamedAsOtherToolsNameTypesPointsToOurs() throws {
        let cli = try CLIHarness()
        for (flag, ours) in [("--float", "--double"), ("-float", "--double"), ("--integer", "--int"), ("--boolean", "--bool")] {
            let result = try cli.run("set", "ratio", "0.5", flag)
            XCTAssertEqual(result.status, 2, flag)
            XCTAssertTrue(result.stderr.contains("Unknown option '\(flag)'") && result.stderr.lowercased().contains("did you mean '\(ours)'"), result.stderr)
        }
        XCTAssertNil(cli.bytes(cli.standardPath))

        let typo = try cli.run("set", "k", "v", "--typ", "int")
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("Unknown option '--typ' (did you mean '--type'?); see 'rizq-prefs set --help'"), typo.stderr)

        // An option of a command typed before the command's name is told where it goes.
        let early = try cli.run("--json", "list")
        XCTAssertEqual(early.status, 2)
        XCTAssertTrue(early.stderr.contains("put it after the command's name, as in 'rizq-prefs list --json"), early.stderr)
        let nested = try cli.run("secret", "--raw", "set", "token")
        XCTAssertTrue(nested.stderr.contains("'rizq-prefs secret set --raw"), nested.stderr)
        XCTAssertFalse(try cli.run("get", "--frobnicate", "k").stderr.contains("did you mean"), "no guess when nothing is close")
    }

    func testAnUnknownCommandIsNamedWithTheNearestOneAndExits2() throws {
        let cli = try CLIHarness()
        let typo = try cli.run("lsit")
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("unknown command 'lsit'") && typo.stderr.contains("did you mean 'rizq-prefs list'"), typo.stderr)
        XCTAssertEqual(typo.stdout, "")

        let help = try cli.run("help", "nosuch")
        XCTAssertEqual(help.status, 2, "not the general help with success")
        XCTAssertTrue(help.stderr.contains("unknown command 'nosuch'") && help.stderr.contains("the commands of 'rizq-prefs' are get, set"), help.stderr)
        XCTAssertEqual(help.stdout, "")

        let secret = try cli.run("secret", "gte", "token")
        XCTAssertEqual(secret.status, 2)
        XCTAssertTrue(secret.stderr.contains("did you mean 'rizq-prefs secret get'"), secret.stderr)

        // Real commands, help included, and keys that look like commands, are untouched.
        XCTAssertEqual(try cli.run("help", "list").status, 0)
        XCTAssertEqual(try cli.run("help", "secret", "get").status, 0)
        XCTAssertEqual(try cli.run("help", "help").status, 0)
        XCTAssertEqual(try cli.run("set", "lsit", "value").status, 0)
        XCTAssertEqual(try cli.run("get", "lsit").stdout, "value\n")
    }

    func testAnInvalidAppIDIsCalledAnAppID() throws {
        let cli = try CLIHarness()
        let result = try cli.run("get", "--app", "com/rizq", "streak")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("invalid app id 'com/rizq'") && result.stderr.contains("--app"), result.stderr)
        XCTAssertFalse(result.stderr.contains("suite name"), result.stderr)
    }

    func testTimeoutExplainsItsRange() throws {
        let cli = try CLIHarness()
        for value in ["0", "-1", "abc", "3601"] {
            let result = try cli.run("secret", "get", "--timeout", value, "token")
            XCTAssertEqual(result.status, 2, value)
            XCTAssertTrue(result.stderr.contains("greater than 0 and at most 3600"), result.stderr)
        }
    }

    func testListingAnEmptySuiteSaysSoOnStderr() throws {
        let cli = try CLIHarness()
        let text = try cli.run("list")
        XCTAssertEqual(text.status, 0)
        XCTAssertEqual(text.stdout, "")
        XCTAssertTrue(text.stderr.contains("is empty"), text.stderr)
        let json = try cli.run("list", "--json")
        XCTAssertEqual(json.stdout, "{}\n")
        XCTAssertEqual(try cli.run("set", "k", "v").status, 0)
        XCTAssertEqual(try cli.run("list").stderr, "", "a suite with keys lists them, and nothing on stderr")
    }

    func testSessionIsHelpedWhereItMeansSomethingAndStillAcceptedElsewhere() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        XCTAssertTrue(try cli.run("secret", "set", "--help").stdout.contains("--session"))
        for command in ["get", "delete", "list"] {
            XCTAssertFalse(try cli.run("secret", command, "--help").stdout.contains("session keyring"), command)
        }
        let service = "org.rizq.clitests.session\(UUID().uuidString.prefix(6))"
        XCTAssertEqual(try cli.run("secret", "set", "--session", "--service", service, "token", stdin: "s").status, 0)
        XCTAssertEqual(try cli.run("secret", "get", "--session", "--service", service, "token").stdout, "s", "accepted as before; reads find it")
        XCTAssertEqual(try cli.run("secret", "get", "--service", service, "token").stdout, "s")
        XCTAssertEqual(try cli.run("secret", "delete", "--session", "--service", service, "token").status, 0)
    }

    /// In a throw-away keyring session: gnome-keyring unlocks only through a prompt or at start.
    func testALockedKeyringNamesTheOptionThatPrompts() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let scratch = NSTemporaryDirectory() + "rizq-cli-locked-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: scratch + "/runtime", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        chmod(scratch + "/runtime", 0o700)
        let script = #"""
            printf 'locked-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
            for _ in $(seq 1 100); do
                dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true && break
                sleep 0.05
            done
            printf 'v' | "$CLI" secret set --service org.rizq.clitests.locked token || exit 10
            call() { gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets "$@"; }
            collection=$(call --method org.freedesktop.Secret.Service.ReadAlias default | grep -o "/[^']*")
            call --method org.freedesktop.Secret.Service.Lock "[objectpath '$collection']" >/dev/null || exit 11
            "$CLI" secret get --service org.rizq.clitests.locked token; echo "status $?"
            "$CLI" secret get --prompt --service org.rizq.clitests.locked token; echo "status $?"
            """#
        var environment = cli.environment
        environment["HOME"] = scratch
        environment["XDG_RUNTIME_DIR"] = scratch + "/runtime"
        environment["XDG_DATA_HOME"] = scratch + "/share"
        environment["CLI"] = CLIHarness.binary
        environment.removeValue(forKey: "DISPLAY")
        let result = try runCommand("/usr/bin/dbus-run-session", ["--", "/bin/bash", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let statuses = result.stdout.split(separator: "\n").filter { $0.hasPrefix("status ") }
        XCTAssertEqual(statuses, ["status 4", "status 4"], result.stdout + result.stderr)
        let messages = result.stderr.split(separator: "\n").filter { $0.hasPrefix("rizq-prefs:") }
        XCTAssertEqual(messages.count, 2, result.stderr)
        XCTAssertTrue(messages.first?.contains("the keyring is locked") == true && messages.first?.contains("--prompt") == true, result.stderr)
        XCTAssertFalse(messages.first?.contains("allowsPrompt") == true, "the library's name is not an option of the tool")
        XCTAssertTrue(messages.last?.contains("prompt was dismissed") == true, "with --prompt and no display: at once, dismissed: \(result.stderr)")
    }
}
