#if Secrets
import Foundation
import RizqCore

/// Seals a secret as a systemd credential, for a unit's `LoadCredentialEncrypted=`: what
/// `rizq-prefs secret export-credential KEY --name ID` does.
///
/// ```sh
/// rizq-prefs secret export-credential database.password --name com.rizq.server.database.password \
///     > /etc/credstore.encrypted/com.rizq.server.database.password
/// # the unit:  LoadCredentialEncrypted=com.rizq.server.database.password
/// ```
///
/// The secret goes to `systemd-creds encrypt --name=ID - -` on its stdin, never in an argument;
/// the credential (base64 text) comes back on its stdout. systemd checks the embedded name when
/// it decrypts, so the file is only good as the credential `ID`. On systemd 252 (Debian 12) only
/// root can use the host key.
public enum CredentialExport {
    /// The sealed credential for `secret` under `name`. `withKey`: `systemd-creds`'s
    /// `--with-key` (`auto`: the TPM2 and the host key where there is a TPM2, else the host key;
    /// `host`, `tpm2`, `host+tpm2`). `pretty`: the `SetCredentialEncrypted=` form for a unit file.
    public static func encrypt(_ secret: Data, name: String, withKey: String = "auto", pretty: Bool = false, timeout: Double = 10) throws(SecretError) -> Data {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", name.utf8.count <= CredentialName.maximumLength, !name.utf8.contains(0) else {
            throw .invalidInput(reason: "'\(name)' cannot be a credential name: systemd takes any name without '/' or NUL, at most \(CredentialName.maximumLength) bytes, not '.' or '..'")
        }
        guard ["auto", "host", "tpm2", "host+tpm2"].contains(withKey) else {
            throw .invalidInput(reason: "--with-key takes auto, host, tpm2 or host+tpm2, not '\(withKey)'")
        }
        // systemd refuses more than 1 MiB (and says so with an empty credential and exit 0); our
        // pipe carries what fits in its buffer.
        guard secret.count <= 60 * 1024 else {
            throw .invalidInput(reason: "the secret is \(secret.count) bytes; a credential made here holds at most 60 KiB (systemd's own limit is 1 MiB: use systemd-creds directly)")
        }
        guard let executable = SystemdCredentialSlot.candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw .keySourceUnavailable(detail: "systemd-creds is not installed (Debian: the systemd package); install it, then try again")
        }
        var arguments = ["encrypt", "--name=\(name)", "--with-key=\(withKey)"]
        if pretty { arguments.append("--pretty") }
        arguments += ["-", "-"]
        let result: KeySourceCommand.Result
        do {
            result = try KeySourceCommand.run(executable, arguments, input: secret, timeout: timeout, source: .systemdCredential, name: "systemd-creds encrypt")
        } catch {
            throw error.secretError
        }
        guard result.status == 0, !result.stdout.isEmpty else {
            throw .keySourceUnavailable(detail: "systemd-creds encrypt exited with status \(result.status): \(result.diagnostic)\(geteuid() == 0 ? "" : "; on systemd 252 only root can use the host key: run it as root")")
        }
        return result.stdout
    }
}
#endif
