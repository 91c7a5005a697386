#if CLI
import RizqCommandLine
import ArgumentParser

/// The root of `rizq-prefs-secrets`: the `rizq-prefs` commands that need the secret backends,
/// the importers and the browser-profile readers (swift-crypto, LevelDB, SQLite). `rizq-prefs`
/// runs this executable in its place for them (``HandedOverCommand``), so the root is named
/// `rizq-prefs`: usage lines, help and errors read as they do for every other command.
struct SecretsToolCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rizq-prefs",
        abstract: "The secret, import-app and doctor commands of rizq-prefs, which 'rizq-prefs' runs; see 'rizq-prefs --help'.",
        version: PackageVersion.current,
        subcommands: [SecretCommand.self, ImportDumpCommand.self, DoctorCommand.self])

    @OptionGroup var verbosity: Verbosity
}
#endif
