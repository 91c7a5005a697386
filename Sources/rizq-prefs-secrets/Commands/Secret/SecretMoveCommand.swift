#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets

/// `rizq-prefs secret move --from A --to B [--delete-source] [--dry-run]` (the first releases
/// called it `secret migrate`, which still works and says so).
struct SecretMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move the service's secrets from one backend to another.",
        discussion: """
            Copies every secret of --from to --to, reads each copy back, and with --delete-source \
            deletes it from --from. Journaled (account names and states, never secrets, next to \
            the vault): if the command is killed at any moment, run it again and it finishes, \
            every item moved once and none lost. A secret that --to already holds with a \
            different value is a conflict and is left alone in both (--overwrite replaces it). \
            Afterwards --to is where the service's new secrets are written. Prints one line per \
            step ("copied NAME", "already-there NAME", "conflict NAME", "deleted NAME"), then a \
            summary; --dry-run prints what would happen and changes nothing.

            Example:
              rizq-prefs secret move --app com.rizq.app --from secret-service --to vault --delete-source

            'secret migrate' is the name the first releases gave this command; it still works.
            """,
        aliases: ["migrate"])

    @OptionGroup var options: SecretOptions

    @Option(help: ArgumentHelp("The backend to move from: \(SecretBackendRegistry.standard.names.map(\.rawValue).joined(separator: ", ")).", valueName: "backend"))
    var from: String

    @Option(help: ArgumentHelp("The backend to move to: any but credentials (\(SecretBackendRegistry.standard.names.filter { $0 != .credentials }.map(\.rawValue).joined(separator: ", "))).", valueName: "backend"))
    var to: String

    @Flag(help: "Delete each secret from --from once its copy was read back from --to.")
    var deleteSource = false

    @Flag(help: "Print what would happen; change nothing.")
    var dryRun = false

    @Flag(help: "Replace a different secret that --to already holds.")
    var overwrite = false

    func run() throws {
        if CommandNames.typedAlias("migrate", root: SecretsToolCommand.self) {
            Output.note("rizq-prefs: 'secret migrate' is now 'secret move' (\"migrate\" means schema versions only); the old name keeps working")
        }
        let names = try [from, to].map { name throws(CLIError) -> SecretBackendName in try SecretBackendOption.name(name) }
        let chain = try options.openStore()
        let report = try CLIError.secrets { () throws(SecretError) in
            try chain.move(from: names[0], to: names[1], deleteSource: deleteSource, dryRun: dryRun, overwrite: overwrite) { account, step in
                Output.line("\(step) \(account)")
            }
        }
        if dryRun {
            for item in report.items { Output.line("\(item.outcome.rawValue) \(item.account)\(item.deletedFromSource ? " (then deleted from \(report.from.rawValue))" : "")") }
        }
        Output.line(report.summary)
        if report.items.contains(where: { $0.outcome == .conflict }) {
            Output.error("some secrets were left in \(report.from.rawValue): \(report.to.rawValue) holds a different value for them; compare them, then run again with --overwrite to replace them")
            throw ExitCode(ExitStatus.secretService.rawValue)
        }
    }
}
#endif
