import Foundation
import RizqTestSupport
import Testing

/// `rizq-prefs fleet` reads its line in the one main of the command line (CommandLineMain), as
/// `rizq-prefs` and `rizq-prefs-secrets` do: the same checks in the same order, the same one-line
/// usage errors and statuses. None of these lines reaches an engine.
@Suite struct FleetCommandLineTests {
    private func rizqPrefs(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runCommand(productsFolder + "/rizq-prefs", arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
    }

    @Test func anUnknownCommandIsNamedWithTheNearestOneAsForEveryOtherCommand() throws {
        let fleet = try rizqPrefs(["fleet", "gett"])
        #expect(fleet.status == 2)
        #expect(fleet.stderr == "rizq-prefs: unknown command 'gett' (did you mean 'rizq-prefs fleet get'?); the commands of 'rizq-prefs fleet' are get, set, delete, list, watch, export, import; see 'rizq-prefs fleet --help'\n")
        let secret = try rizqPrefs(["secret", "gett"])
        #expect(secret.stderr.hasPrefix("rizq-prefs: unknown command 'gett' (did you mean 'rizq-prefs secret get'?); the commands of 'rizq-prefs secret' are "), "the same words: \(secret.stderr)")
    }

    @Test func aUsageErrorIsOneLineNamingTheCommandsHelp() throws {
        let missing = try rizqPrefs(["fleet", "get"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "rizq-prefs: Missing expected argument '<key>'; see 'rizq-prefs fleet get --help' for more information.\n")
        let unknown = try rizqPrefs(["fleet", "set", "--suite", "s", "k", "x", "--int", "--bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "rizq-prefs: Unknown option '--bogus' (did you mean '--bool'?); see 'rizq-prefs fleet set --help' for more information.\n")
        let local = try rizqPrefs(["set", "k", "x", "--int", "--bogus"])
        #expect(local.stderr == "rizq-prefs: Unknown option '--bogus' (did you mean '--bool'?); see 'rizq-prefs set --help' for more information.\n")
    }

    /// Run by hand, the executable takes the line as typed after `rizq-prefs` (its first word
    /// `fleet` is its own name), and `--help` prints the help on stdout with status 0.
    @Test func theExecutableRunByHandTakesTheLineAsTyped() throws {
        let direct = try runCommand(productsFolder + "/rizq-prefs-fleet", ["fleet", "get"])
        #expect(direct.status == 2)
        #expect(direct.stderr == "rizq-prefs: Missing expected argument '<key>'; see 'rizq-prefs fleet get --help' for more information.\n")
        let help = try runCommand(productsFolder + "/rizq-prefs-fleet", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Read and change a fleet suite"), "\(help.stdout.prefix(200))")
        #expect(help.stdout.contains("EXIT STATUS"))
        #expect(help.stderr.isEmpty)
    }
}
