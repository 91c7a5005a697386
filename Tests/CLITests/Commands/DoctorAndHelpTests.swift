import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// doctor, --help, completions.
final class DoctorAndHelpTests: XCTestCase {
    func testDoctorIsHappyWithHealthyFilesAndAReachableUnlockedKeyring() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        try cli.run("set", "k", "v")
        let doctor = try cli.run("doctor")
        XCTAssertEqual(doctor.status, 0, doctor.stdout + doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains(cli.standardPath) && doctor.stdout.contains("1 key, valid JSON, mode 600"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("the default keyring is unlocked"), doctor.stdout)
        let json = try JSONReader.parse(try cli.run("doctor", "--json").stdout)
        guard case .dictionary(let report) = json else { return XCTFail("not an object") }
        XCTAssertEqual(report["healthy"], true)
        XCTAssertEqual(report["root"], .string(cli.root))
    }

    func testDoctorFindsOpenPermissionsAndDamagedFilesWithoutTouchingThem() throws {
        let cli = try CLIHarness()
        try cli.run("set", "k", "v")
        chmod(cli.standardPath, 0o644)
        let damaged = cli.root + "/groups/group.com.rizq.app.json"
        try FileManager.default.createDirectory(atPath: cli.root + "/groups", withIntermediateDirectories: true)
        try Data("[not json".utf8).write(to: URL(fileURLWithPath: damaged))
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 3, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("chmod 600 '\(cli.standardPath)'"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains(damaged) && doctor.stdout.contains("not valid JSON"), doctor.stdout)
        XCTAssertEqual(cli.bytes(damaged), Data("[not json".utf8), "doctor changes nothing")
    }

    /// A suite whose only key looks like a tag is a suite, for doctor as for an open.
    func testDoctorCountsASuiteWhoseOnlyKeyLooksLikeATag() throws {
        let cli = try CLIHarness()
        try cli.run("set", "$date", "2026-11-23T07:00:00.000000Z")
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 0, doctor.stdout + doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains("1 key, valid JSON, mode 600"), doctor.stdout)
        XCTAssertEqual(try cli.run("get", "$date").stdout, "2026-11-23T07:00:00.000000Z\n")
    }

    func testDoctorExitsFourWhenTheSecretServiceTheSecretsGoToIsUnreachable() throws {
        let cli = try CLIHarness()
        let noBus: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": "/nonexistent", "RIZQ_SECRETS_DIR": cli.root + "/secrets"]
        var pinned = noBus
        pinned["RIZQ_SECRETS_BACKEND"] = "secret-service"
        let doctor = try cli.run(["doctor"], environment: pinned)
        XCTAssertEqual(doctor.status, 4, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("dbus-run-session"), "says how to fix it: \(doctor.stdout)")
        // With nothing pinned and no key source for a vault, nothing can store secrets: exit 4 and the fixes.
        var nothing = noBus
        nothing["RIZQ_SECRETS_SYSTEMD_CREDS"] = "0"
        for variable in ["RIZQ_SECRETS_PASSPHRASE_FILE", "RIZQ_SECRETS_PASSPHRASE_FD", "RIZQ_SECRETS_PASSPHRASE_COMMAND", "RIZQ_SECRETS_KEY_FILE", "RIZQ_SECRETS_BACKEND"] {
            nothing[variable] = .some(nil)
        }
        let headless = try cli.run(["doctor"], environment: nothing)
        XCTAssertEqual(headless.status, 4, headless.stdout)
        XCTAssertTrue(headless.stdout.contains("no backend can store secrets here") && headless.stdout.contains("RIZQ_SECRETS_PASSPHRASE_FILE"), headless.stdout)
        // A passphrase file others can read protects nothing: refused, naming the check (issue 37, item 2).
        nothing["RIZQ_SECRETS_PASSPHRASE_FILE"] = cli.root + "/passphrase"
        try Data("a passphrase".utf8).write(to: URL(fileURLWithPath: cli.root + "/passphrase"))
        XCTAssertEqual(chmod(cli.root + "/passphrase", 0o644), 0)
        let readable = try cli.run(["doctor"], environment: nothing)
        XCTAssertEqual(readable.status, 4, readable.stdout)
        XCTAssertTrue(readable.stdout.contains("other users can read it") && readable.stdout.contains("chmod 600"), readable.stdout)
        // A private passphrase file is enough: the vault takes the secrets, and doctor is content.
        XCTAssertEqual(chmod(cli.root + "/passphrase", 0o600), 0)
        let withVault = try cli.run(["doctor"], environment: nothing)
        XCTAssertEqual(withVault.status, 0, withVault.stdout)
        XCTAssertTrue(withVault.stdout.contains("writes go to vault"), withVault.stdout)
    }

    func testHelpDocumentsExitCodesAndEnvironmentAndCompletionsAreGenerated() throws {
        let cli = try CLIHarness()
        let help = try cli.run("--help")
        XCTAssertEqual(help.status, 0)
        for text in ["EXIT STATUS", "RIZQ_PREFS_HOME", "RIZQ_PREFS_APP_ID", "3  storage error", "secret", "doctor", "watch"] {
            XCTAssertTrue(help.stdout.contains(text), "help lacks \(text)")
        }
        let setHelp = try cli.run("help", "set")
        XCTAssertTrue(setHelp.stdout.contains("@SECONDS") && setHelp.stdout.contains("--json"), setHelp.stdout)
        for shell in ["bash", "zsh", "fish"] {
            let script = try cli.run("--generate-completion-script", shell)
            XCTAssertEqual(script.status, 0)
            // The script asks the program what completes (CompletionTests, scripts/test-completions).
            XCTAssertTrue(script.stdout.contains("rizq-prefs") && script.stdout.contains("__complete"), shell)
        }
    }
}
