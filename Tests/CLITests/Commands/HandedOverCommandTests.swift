import Foundation
import RizqCommandLine
import XCTest

/// `secret …`, `import-app` and `doctor` run in `rizq-prefs-secrets`, which `rizq-prefs`
/// executes in its place (HandedOverCommand): the same words give the same results, however they
/// reach it, and a copy of `rizq-prefs` without it says what is missing.
final class HandedOverCommandTests: XCTestCase {
    func testHandedOverCommandsAnswerAsTheirOwnExecutableDoes() throws {
        let cli = try CLIHarness()
        // `help secret` is `secret --help`: the real help, with the subcommands.
        let help = try cli.run("help", "secret")
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("USAGE: rizq-prefs secret <subcommand>") && help.stdout.contains("export-credential"), help.stdout)
        XCTAssertEqual(help.stdout, try cli.run("secret", "--help").stdout)
        // The old name of import-app is handed over too, with its note.
        let migrate = try cli.run("migrate", "--help")
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertTrue(migrate.stdout.contains("USAGE: rizq-prefs import-app"), migrate.stdout)
        // An option before the command's name reaches the same command (through the stub).
        let verbose = try cli.run("-v", "secret", "get", "--service", "org.rizq.handover", "absent", "--backend", "plaintext")
        let direct = try cli.run("secret", "get", "--service", "org.rizq.handover", "absent", "--backend", "plaintext")
        XCTAssertEqual(direct.status, verbose.status, "\(direct.stderr) | \(verbose.stderr)")
        XCTAssertNotEqual(direct.status, 0, direct.stderr)
        // A mistake under a handed-over command names the commands there.
        let unknown = try cli.run("secret", "gte", "k")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown command 'gte' (did you mean 'rizq-prefs secret get'?)"), unknown.stderr)
    }

    func testACopyWithoutTheSecretsExecutableSaysWhatToInstall() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/alone"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A link of its own name in a folder without rizq-prefs-secrets (a copy where links cannot go).
        let copy = folder + "/rizq-prefs"
        if link(CLIHarness.binary, copy) != 0 { try FileManager.default.copyItem(atPath: CLIHarness.binary, toPath: copy) }
        var environment = cli.environment
        environment["PATH"] = "/usr/bin:/bin"
        for line in [["secret", "list"], ["doctor"], ["import-app", "--help"], ["-v", "secret", "list"]] {
            let result = try runProcess(copy, line, input: nil, environment: environment)
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            XCTAssertEqual(result.status, 2, "\(line): \(stderr)")
            XCTAssertTrue(stderr.contains("the secret, import-app and doctor commands are in 'rizq-prefs-secrets', which is neither next to rizq-prefs (\(folder)) nor on PATH"), "\(line): \(stderr)")
        }
        // Every other command still works.
        let set = try runProcess(copy, ["set", "k", "v"], input: nil, environment: environment)
        XCTAssertEqual(set.status, 0, String(decoding: set.stderr, as: UTF8.self))
        XCTAssertEqual(try cli.run("get", "k").stdout, "v\n")
    }
}
