#if CLI
/// A command of `rizq-prefs` that another executable runs: `rizq-prefs` replaces itself with
/// that executable, as git runs its subcommands, so that a `get` or `set` never loads what only
/// these commands need (NIO and postgres-nio for `fleet`; swift-crypto, the browser-profile
/// readers and the importers for `secret`, `import-app` and `doctor`). The loader maps and
/// relocates the whole binary at every start (docs/performance.md, "The command line's start-up,
/// a fifth time").
///
/// `rizq-prefs --help` lists each with the abstract given here, which the command itself uses too.
package struct HandedOverCommand: Sendable {
    /// The command's name: the first word of its command line.
    package let name: String
    /// Its other names (`import-app` was `migrate`).
    package var aliases: [String] = []
    /// The executable that runs it, found next to `rizq-prefs` or on `PATH`.
    package let executable: String
    /// What `--help` says of it.
    package let abstract: String
    /// Whether the executable is given the command's name as the first word (its root has the
    /// command under it), or only the words after it (its root is the command).
    package let keepsName: Bool

    /// `rizq-prefs fleet …`: `rizq-prefs-fleet`.
    package static let fleet = HandedOverCommand(
        name: "fleet", executable: "rizq-prefs-fleet",
        abstract: "Read and change fleet suites (settings shared by many hosts through PostgreSQL): get, set, delete, list, watch, export, import. See 'rizq-prefs fleet --help'.",
        keepsName: false)

    /// `rizq-prefs secret …`: `rizq-prefs-secrets`.
    package static let secret = HandedOverCommand(
        name: "secret", executable: "rizq-prefs-secrets",
        abstract: "Store, read, delete and list secrets: the Secret Service, the vault, systemd credentials.",
        keepsName: true)

    /// `rizq-prefs import-app …`: `rizq-prefs-secrets`.
    package static let importApp = HandedOverCommand(
        name: "import-app", aliases: ["migrate"], executable: "rizq-prefs-secrets",
        abstract: "Import a web app's localStorage or an Apple app's defaults once: settings into suites, tokens into the secret store (rizq-prefs secret backends).",
        keepsName: true)

    /// `rizq-prefs doctor`: `rizq-prefs-secrets`.
    package static let doctor = HandedOverCommand(
        name: "doctor", executable: "rizq-prefs-secrets",
        abstract: "Check the suite files and the secret backends, and say what needs fixing.",
        keepsName: true)

    /// Whether `word` names this command (its name or an alias).
    package func isNamed(_ word: String) -> Bool {
        word == name || aliases.contains(word)
    }

    /// Every command `rizq-prefs` hands over.
    package static let all: [HandedOverCommand] = [fleet, secret, importApp, doctor]

    /// The commands `executable` runs, for messages ("the secret, import-app and doctor commands").
    package static func names(runBy executable: String) -> String {
        let names = all.filter { $0.executable == executable }.map(\.name)
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
    }
}
#endif
