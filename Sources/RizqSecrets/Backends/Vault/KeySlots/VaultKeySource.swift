#if Secrets
/// Where the vault's identity (its age `AGE-SECRET-KEY-1…` key) can come from, in the order
/// they are tried: the kernel-keyring cache, then the key slots.
public enum VaultKeySource: String, Sendable, CaseIterable, Codable {
    /// The identity cached in the kernel keyring by ``VaultSecretStore/unlock(timeout:)``.
    case kernelKeyringCache = "kernel-keyring"
    /// `slots/systemd.cred`: the identity encrypted by `systemd-creds` with the host key (and
    /// the TPM2 where there is one). Root only on systemd 252 (Debian 12).
    case systemdCredential = "systemd-creds"
    /// A key file: the identity in plain text at a path you choose (`RIZQ_SECRETS_KEY_FILE`).
    case keyFile = "key-file"
    /// `slots/passphrase.age`: the identity encrypted with a passphrase (scrypt), exactly what
    /// `age -p` writes.
    case passphrase

    /// The three kinds of slot a vault can hold (the cache is not a slot).
    public static let slots: [VaultKeySource] = [.systemdCredential, .keyFile, .passphrase]
}

/// What protects the vault's identity in one key source.
public enum VaultKeyProtection: String, Sendable, Codable {
    /// systemd-creds sealed with the TPM2 and the host key: a stolen disk alone does not open it.
    case tpm2AndHostKey = "tpm2+host-key"
    /// systemd-creds with the host key only (`/var/lib/systemd/credential.secret`): a stolen disk
    /// that holds the host key opens it.
    case hostKey = "host-key"
    /// A passphrase (scrypt): offline guessing is as hard as the passphrase is strong.
    case passphrase
    /// A key file on another file system than the vault (a removable disk, a mounted secret).
    case keyFile = "key-file"
    /// A key file on the same file system as the vault: obfuscation only. It keeps the secrets
    /// from a copy of the vault folder alone, not from anyone who can read both.
    case obfuscation
    /// Kernel memory (the kernel keyring), readable by this user's processes until it expires.
    case kernelMemory = "kernel-memory"
}

/// How long a key source keeps the identity.
public enum VaultKeyPersistence: String, Sendable, Codable {
    /// Gone at reboot, at its time-out, or at ``VaultSecretStore/lock()``.
    case untilReboot = "until-reboot"
    /// Kept on disk until the slot is removed.
    case untilDeleted = "until-deleted"
}

/// One key source as it declares itself: is it set up for this vault, can it be used now (and
/// why not), and what it promises.
public struct VaultKeySourceStatus: Sendable, Equatable, Codable {
    /// The source.
    public var source: VaultKeySource
    /// The vault has this slot (or, for the cache, the cache holds its identity now).
    public var isPresent: Bool
    /// It can be used now without asking anyone: the tool or input it needs is there.
    public var isUsable: Bool
    /// Why it is or is not usable, for `secret backends` and `doctor`.
    public var reason: String
    /// What protects the identity there.
    public var protection: VaultKeyProtection
    /// How long it keeps it.
    public var persistence: VaultKeyPersistence

    /// A status from its parts.
    public init(source: VaultKeySource, isPresent: Bool, isUsable: Bool, reason: String, protection: VaultKeyProtection, persistence: VaultKeyPersistence) {
        self.source = source
        self.isPresent = isPresent
        self.isUsable = isUsable
        self.reason = reason
        self.protection = protection
        self.persistence = persistence
    }
}
#endif
