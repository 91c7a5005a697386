import ArgumentParser

/// `rizq-prefs secret …`: tokens in the Secret Service.
struct SecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Store, read, delete and list secrets in the Secret Service.",
        discussion: """
            Secrets (auth tokens, API keys) live in the desktop's Secret Service (GNOME Keyring, \
            KWallet, KeePassXC), never in a suite file. Items carry the attributes service (--service, \
            default: the app id) and account (the KEY), so 'secret-tool lookup service S account KEY' \
            finds them too. A secret is read from stdin, never from the command line.
            """,
        subcommands: [SecretSetCommand.self, SecretGetCommand.self, SecretDeleteCommand.self, SecretListCommand.self])
}
