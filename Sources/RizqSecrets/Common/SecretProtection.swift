#if Secrets
/// How long a backend (or one of the vault's key sources) keeps a secret.
public enum SecretPersistence: String, Sendable, Codable {
    /// As long as a process runs (the Secret Service's session keyring: its daemon).
    case process
    /// Until the machine restarts (the kernel-keyring cache of the vault's key, until its time-out).
    case untilReboot = "until-reboot"
    /// On disk until it is deleted.
    case untilDeleted = "until-deleted"
    /// Provided by the host for the life of the unit or container (systemd credentials, Docker
    /// and Kubernetes secrets): RizqPrefs neither keeps nor changes it.
    case providedByHost = "provided-by-host"
}

/// What protects a backend's secrets (or one of the vault's key sources) at rest.
public enum SecretProtection: String, Sendable, Codable {
    /// The desktop keyring's own encryption, unlocked by the login password.
    case osKeyring = "os-keyring"
    /// A TPM2 (systemd-creds with the TPM): a stolen disk alone does not open it.
    case tpm
    /// systemd's host key (`/var/lib/systemd/credential.secret`): a stolen disk that holds the
    /// host key opens it.
    case hostKey = "host-key"
    /// A passphrase (scrypt): as strong as the passphrase.
    case passphrase
    /// A key file on another file system than the secrets.
    case keyFile = "key-file"
    /// A key file on the same file system as the secrets: obfuscation only (it keeps them from
    /// someone who copies the secrets' folder alone).
    case obfuscation
    /// Kernel memory only (the kernel-keyring cache): nothing at rest.
    case kernelMemory = "kernel-memory"
    /// The Secret portal's master secret, kept by the host's keyring for a sandboxed app.
    case sandboxPortal = "sandbox-portal"
    /// Nothing: plain text, readable by anyone who can read the file.
    case plaintext
    /// Whatever the host used to deliver it: `LoadCredentialEncrypted=` is sealed with the host
    /// key or a TPM2 at rest; `LoadCredential=`, Docker and Kubernetes secrets are plain files.
    case hostProvided = "host-provided"
}
#endif
