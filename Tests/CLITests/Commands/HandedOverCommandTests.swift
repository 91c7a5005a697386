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
            XCTAssertTrue(stderr.contains("the secret, import-app and doctor commands are in 'rizq-prefs-secrets', which is not next to rizq-prefs (\(folder))"), "\(line): \(stderr)")
        }
        // Every other command still works.
        let set = try runProcess(copy, ["set", "k", "v"], input: nil, environment: environment)
        XCTAssertEqual(set.status, 0, String(decoding: set.stderr, as: UTF8.self))
        XCTAssertEqual(try cli.run("get", "k").stdout, "v\n")
    }

    /// Issue 50, item 6: a sibling executable was looked for on PATH too, relative entries (`.`)
    /// included, and run with no owner check. Only the one installed beside rizq-prefs runs now,
    /// and only when no one else can change it.
    func testOnlyTheSiblingInstalledBesideRunsNeverOneFromPATH() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/alone"
        let planted = cli.root + "/planted"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        let copy = folder + "/rizq-prefs"
        if link(CLIHarness.binary, copy) != 0 { try FileManager.default.copyItem(atPath: CLIHarness.binary, toPath: copy) }
        let marker = cli.root + "/the-planted-program-ran"
        let script = "#!/bin/sh\ntouch '\(marker)'\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: planted + "/rizq-prefs-secrets", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        var environment = cli.environment
        environment["PATH"] = ".:\(planted):/usr/bin:/bin"
        let fromPlanted = try runProcess("/bin/sh", ["-c", "cd '\(planted)' && exec '\(copy)' secret list"], environment: environment)
        XCTAssertEqual(fromPlanted.status, 2, String(decoding: fromPlanted.stderr, as: UTF8.self))
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "a program found on PATH ran")

        // Beside it, but writable by others: refused, naming the mode.
        let sibling = folder + "/rizq-prefs-secrets"
        XCTAssertTrue(FileManager.default.createFile(atPath: sibling, contents: Data(script.utf8), attributes: [.posixPermissions: 0o777]))
        XCTAssertEqual(chmod(sibling, 0o777), 0)
        let open = try runProcess(copy, ["secret", "list"], environment: environment)
        XCTAssertEqual(open.status, 2)
        XCTAssertTrue(String(decoding: open.stderr, as: UTF8.self).contains("refusing to run \(sibling): it has mode 777"), String(decoding: open.stderr, as: UTF8.self))
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
        // Made private, the installed one runs.
        XCTAssertEqual(chmod(sibling, 0o755), 0)
        XCTAssertEqual(try runProcess(copy, ["secret", "list"], environment: environment).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker))
    }
}
