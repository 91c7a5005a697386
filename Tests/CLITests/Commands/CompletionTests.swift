import Foundation
import XCTest

/// Issue 51: shell completion asks the program (`rizq-prefs __complete WORD…`, what the scripts of
/// `--generate-completion-script` run at each Tab): the real command tree's commands, options and
/// values, and the handed-over commands' from the executables that run them. scripts/test-completions
/// completes the same words in real bash, zsh and fish.
final class CompletionTests: XCTestCase {
    /// The words offered for `words` (the last one being completed), without descriptions.
    private func offered(_ words: String...) throws -> [String] {
        let result = try CLIHarness().run(["__complete"] + words)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    func testCommandsOptionsAndValuesComplete() throws {
        XCTAssertEqual(try offered("sui"), ["suites"])
        XCTAssertTrue(try offered("").starts(with: ["get", "set", "delete", "list", "suites"]))
        XCTAssertEqual(try offered("set", "--ty"), ["--type"])
        XCTAssertEqual(try offered("set", "k", "v", "--type", ""), ["bool", "int", "double", "string", "date", "data", "json"])
        XCTAssertEqual(try offered("set", "--type=d"), ["--type=double", "--type=date", "--type=data"])
        XCTAssertEqual(try offered("sync", "ena"), ["enable"])
        // A file name: the shell lists the files (the last line says so).
        XCTAssertEqual(try offered("import", "--suite", "s", ""), [":files"])
        XCTAssertEqual(try offered("get", "--mounted", ""), [":directories"])
    }

    func testAnOptionGivenIsNotOfferedAgainAndOptionValuesAreSkipped() throws {
        let once = try offered("get", "--json", "--")
        XCTAssertFalse(once.contains("--json"), "\(once)")
        XCTAssertTrue(once.contains("--app"), "\(once)")
        // `--suite json`: "json" is the option's value, not the key; the key is still to come.
        XCTAssertTrue(try offered("get", "--suite", "json", "--j").contains("--json"))
        // An option of several values (`--keys a b`) ends at the next option.
        XCTAssertEqual(try offered("sync", "enable", "--keys", "a", "b", "--fi"), ["--first-device"])
    }

    func testAnAliasIsUnderstoodButNotOffered() throws {
        XCTAssertEqual(try offered("mig"), [])
        XCTAssertEqual(try offered("migrate", "--pl"), ["--plan"])
        let secret = try offered("secret", "")
        XCTAssertTrue(secret.contains("move") && !secret.contains("migrate"), "\(secret)")
    }

    func testHandedOverCommandsCompleteFromTheirOwnExecutables() throws {
        // rizq-prefs-secrets' tree: `secret`, `import-app`, `doctor`.
        XCTAssertEqual(try offered("secret", "s"), ["set"])
        XCTAssertTrue(try offered("secret", "set", "--ba").contains("--backend"))
        XCTAssertEqual(try offered("import-app", "--pl"), ["--plan"])
        XCTAssertEqual(try offered("import-app", "--plan", ""), [":files"])
        XCTAssertEqual(try offered("doctor", "--sk"), ["--skip-secrets"])
        // rizq-prefs-fleet's tree, given the words after `fleet`.
        XCTAssertEqual(try offered("fleet", "wa"), ["watch"])
        XCTAssertTrue(try offered("fleet", "set", "--ty").contains("--type"))
    }

    func testTheScriptsAskTheProgramAndAnUnknownShellIsRefused() throws {
        let cli = try CLIHarness()
        for shell in ["bash", "zsh", "fish"] {
            let script = try cli.run("--generate-completion-script", shell)
            XCTAssertEqual(script.status, 0, script.stderr)
            XCTAssertTrue(script.stdout.contains("__complete"), script.stdout)
            XCTAssertFalse(script.stdout.contains("import-app"), "no command is named in the script")
        }
        XCTAssertEqual(try cli.run("--generate-completion-script=zsh").stdout, try cli.run("--generate-completion-script", "zsh").stdout)
        let unknown = try cli.run("--generate-completion-script", "ksh")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("takes one of bash, zsh, fish (got 'ksh')"), unknown.stderr)
    }
}
