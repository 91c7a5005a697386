#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets

/// `rizq-prefs secret export-credential KEY --name ID`
struct SecretExportCredentialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-credential",
        abstract: "Print a secret sealed as a systemd credential, for a unit's LoadCredentialEncrypted=.",
        discussion: """
            Reads the secret KEY from the chain and seals it with 'systemd-creds encrypt \
            --name=ID' (the secret on its stdin, never in an argument), printing the credential. \
            Save it where the unit loads it from; the service then reads it as account KEY of \
            service S when ID is S.KEY (the file $CREDENTIALS_DIRECTORY/S.KEY). Root only on \
            systemd 252 (Debian 12): the host key is root's.

            Example:
              rizq-prefs secret export-credential --app com.rizq.server database.password \\
                  --name com.rizq.server.database.password > /etc/credstore.encrypted/com.rizq.server.database.password
              # in the unit: LoadCredentialEncrypted=com.rizq.server.database.password
            """)

    @OptionGroup var options: SecretOptions

    @OptionGroup var backend: SecretBackendOption

    @Argument(help: "The account: the secret's name.", transform: NegativeNumbers.unmarked)
    var key: String

    @Option(help: ArgumentHelp("The credential's name (ID in LoadCredentialEncrypted=ID); systemd checks it when decrypting.", valueName: "id"))
    var name: String

    @Option(help: ArgumentHelp("systemd-creds' key: auto (TPM2 and host key where there is a TPM2, else the host key), host, tpm2 or host+tpm2.", valueName: "key"))
    var withKey = "auto"

    @Flag(help: "Print the SetCredentialEncrypted= lines for a unit file instead.")
    var pretty = false

    func run() throws {
        let store = try options.openStore(backend: backend.kind())
        guard var secret = try CLIError.secrets({ () throws(SecretError) in try store.secretData(forAccount: key) }) else {
            throw CLIError(.notFound, "no secret '\(key)' for service \(store.service); store it first: rizq-prefs secret set \(key)")
        }
        defer { secret.resetBytes(in: 0..<secret.count) }
        let credential = try CLIError.secrets { () throws(SecretError) in
            try CredentialExport.encrypt(secret, name: name, withKey: withKey, pretty: pretty)
        }
        Output.bytes(credential)
    }
}
#endif
