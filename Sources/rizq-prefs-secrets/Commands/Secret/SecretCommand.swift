#if CLI
import RizqCommandLine
import ArgumentParser

/// `rizq-prefs secret …`: tokens in the Secret Service.
struct SecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: HandedOverCommand.secret.abstract,
        discussion: """
            Secrets (auth tokens, API keys) never go into a suite file. They go through a chain of \
            backends: reads try systemd's credentials ($CREDENTIALS_DIRECTORY, read-only), the \
            desktop's Secret Service (GNOME Keyring, KWallet, KeePassXC), then the encrypted vault \
            (~/.local/share/rizq-prefs/secrets/SERVICE, opened by systemd-creds as root, a \
            passphrase, or a key file); writes go to one of them, chosen once and remembered \
            ('rizq-prefs secret backends' says which, and why). --backend NAME uses one backend \
            alone. In the Secret Service, items carry the attributes service (--service, default: \
            the app id) and account (the KEY), so 'secret-tool lookup service S account KEY' finds \
            them too. A secret is read from stdin, never from the command line.

            ENVIRONMENT
              RIZQ_SECRETS_BACKEND   auto (default), or a backend, or an order: credentials,vault
              RIZQ_SECRETS_PASSPHRASE_FILE, _FD, _COMMAND   the vault's passphrase
              RIZQ_SECRETS_KEY_FILE  an age key file that opens the vault
              RIZQ_SECRETS_DIR       the vaults' folder (default: $XDG_DATA_HOME/rizq-prefs/secrets)
              RIZQ_SECRETS_RUN_SECRETS=1   also read /run/secrets (Docker, Kubernetes)
              RIZQ_SECRETS_CONFIG    the config file (default: $XDG_CONFIG_HOME/rizq-prefs-secrets/secrets.json)
            """,
        subcommands: [
            SecretSetCommand.self, SecretGetCommand.self, SecretDeleteCommand.self, SecretListCommand.self, SecretBackendsCommand.self,
            SecretUnlockCommand.self, SecretLockCommand.self, SecretRekeyCommand.self, SecretAcceptRestoredCommand.self,
            SecretMoveCommand.self, SecretExportCredentialCommand.self, SecretUpgradeCommand.self,
        ])
}
#endif
