import Foundation
import XCTest

/// Issue 29, item 7: a `migrate` killed in the middle (SIGINT, SIGTERM, SIGKILL while the
/// keyring is slow) left secrets in the keyring, no suite and no record, and said nothing.
///
/// The signal arrives at a fixed point of the real command, with no sleep: `strace` injects it
/// when the command syncs its journal line for the second secret (`fdatasync`, the third call:
/// the journal's header, the first secret's line, the second's), i.e. after the first secret was
/// written to the real Secret Service and before the second. A caught signal (SIGINT, SIGTERM)
/// makes the import stop at its next step and roll back: nothing is left, and the command ends
/// by that signal (status 128 + N, as a shell shows it). SIGKILL cannot be caught: the journal
/// it leaves names the secrets; `doctor` reports it, and `migrate --recover` removes the secret
/// the killed import wrote and says what it did.
final class ImportAppInterruptionTests: XCTestCase {
    private var cleanups: [() -> Void] = []

    override func setUpWithError() throws {
        try requireSecretService()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw XCTSkip("strace is not installed (scripts/install-deps installs it)")
        }
    }

    override func tearDown() {
        for cleanup in cleanups { cleanup() }
        cleanups = []
    }

    /// A service name of this test only; its items are deleted afterwards.
    private func uniqueService(_ cli: CLIHarness) -> String {
        let service = "org.rizq.clitests.interrupt.\(UUID().uuidString.prefix(8))"
        cleanups.append {
            let accounts = (try? cli.run(["secret", "list", "--service", service]))?.stdout.split(separator: "\n") ?? []
            for account in accounts { _ = try? cli.run(["secret", "delete", "--service", service, String(account)]) }
        }
        return service
    }

    /// A dump with two tokens (two secret writes) and two settings, in a file of its own.
    private func writeDump(_ cli: CLIHarness) throws -> (path: String, tokens: [String]) {
        let tokens = [FakeToken.jwt(subject: "interrupt-1"), FakeToken.jwt(subject: "interrupt-2")]
        let object = ["access_token": tokens[0], "refresh_token": tokens[1], "theme_mode": "dark", "daily_goal": "3"]
        let folder = cli.root + "-inputs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        cleanups.append { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/dump.json"
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        return (path, tokens)
    }

    /// Runs `rizq-prefs migrate DUMP --service SERVICE` with `signal` delivered at its third
    /// `fdatasync`; returns its exit status as a shell sees it (128 + N when a signal ended it),
    /// its stdout and its stderr. The signals start at their default action (`env
    /// --default-signal`), as in a terminal, whatever the test runner ignores: an ignored SIGINT
    /// is inherited across exec and would hide a command that does not handle it.
    private func migrate(_ cli: CLIHarness, _ dump: String, _ service: String, signal: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let script = #"""
            env --default-signal=INT,TERM,HUP strace -f -qq -o /dev/null -e trace=fdatasync -e "inject=fdatasync:signal=$1:when=3" "$2" migrate "$3" --service "$4" 2> "$5"
            echo "status $?"
            """#
        let errors = cli.root + "-inputs/stderr"
        let result = try runCommand("/bin/bash", ["-c", script, "migrate-interrupted", signal, CLIHarness.binary, dump, service, errors], environment: cli.environment)
        let status = result.stdout.split(separator: "\n").last { $0.hasPrefix("status ") }.flatMap { Int32($0.dropFirst("status ".count)) } ?? -1
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return (status, result.stdout, stderr)
    }

    private func accounts(_ cli: CLIHarness, _ service: String) throws -> [String] {
        try cli.run(["secret", "list", "--service", service]).stdout.split(separator: "\n").map(String.init).sorted()
    }

    func testACaughtSignalDuringMigrateRollsBackEverything() throws {
        for (name, number) in [("SIGINT", SIGINT), ("SIGTERM", SIGTERM)] {
            let cli = try CLIHarness()
            let service = uniqueService(cli)
            let dump = try writeDump(cli)
            let run = try migrate(cli, dump.path, service, signal: name)
            XCTAssertEqual(run.status, 128 + number, "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("interrupted by \(name)"), "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("nothing was imported"), "\(name): \(run.stderr)")
            XCTAssertEqual(try accounts(cli, service), [], "\(name): the secret written before the signal was removed")
            XCTAssertEqual(fileSnapshot(under: cli.root), [:], "\(name): no suite, no record, no journal")
            for token in dump.tokens { XCTAssertFalse(run.stderr.contains(token) || run.stdout.contains(token), name) }
            // Nothing is left for a later run: the same import then runs whole.
            let again = try cli.run(["import-app", dump.path, "--service", service])
            XCTAssertEqual(again.status, 0, "\(name): \(again.stderr)")
            XCTAssertEqual(try accounts(cli, service), ["access_token", "refresh_token"], name)
            XCTAssertEqual(try cli.run("get", "theme_mode").stdout, "dark\n", name)
        }
    }

    func testAKilledMigrateIsReportedByDoctorAndUndoneByRecover() throws {
        let cli = try CLIHarness()
        let service = uniqueService(cli)
        let dump = try writeDump(cli)
        let run = try migrate(cli, dump.path, service, signal: "SIGKILL")
        XCTAssertEqual(run.status, 128 + SIGKILL, run.stderr)
        // What the report found: a secret in the keyring, no suite, no record.
        XCTAssertEqual(try accounts(cli, service).count, 1, "the first secret was written before the kill")
        let journals = fileSnapshot(under: cli.root).keys.filter { $0.hasSuffix(".journal") }
        XCTAssertEqual(journals.count, 1, "the journal is left: \(fileSnapshot(under: cli.root).keys.sorted())")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.standardPath), "no suite was written")

        let doctor = try cli.run("doctor")
        XCTAssertNotEqual(doctor.status, 0, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("was killed before it finished"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("rizq-prefs import-app --app '\(cli.appID)' --recover"), doctor.stdout)

        let recover = try cli.run(["import-app", "--app", cli.appID, "--recover"])
        XCTAssertEqual(recover.status, 0, recover.stderr)
        XCTAssertTrue(recover.stderr.contains("removed the 1 secret(s) it had written"), recover.stderr)
        XCTAssertTrue(recover.stderr.contains("had not been written"), "the second secret's line names a write that never happened: \(recover.stderr)")
        XCTAssertEqual(try accounts(cli, service), [], "the orphaned secret is gone")
        XCTAssertEqual(fileSnapshot(under: cli.root), [:], "the journal is gone")
        XCTAssertTrue(try cli.run("doctor").stdout.contains("was killed before it finished") == false, "doctor has nothing more to say about it")

        let again = try cli.run(["import-app", dump.path, "--service", service])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try accounts(cli, service), ["access_token", "refresh_token"])
    }
}
