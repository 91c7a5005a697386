/// Why a secret could not be stored, read, deleted or listed.
///
/// Each message says what happened and what to do. None ever holds a secret: secrets are never
/// passed to anything that builds one. A missing item is not an error (reads return `nil`), and
/// nothing ever falls back to writing a secret anywhere else.
///
/// A backend chain (`ChainedSecretStore` in `RizqSecrets`) passes its backends' errors on as they
/// are: a backend that is there but locked, frozen or failing is an error, never a reason to
/// read or write elsewhere.
public enum SecretError: Error, Sendable, Equatable {
    /// There is no D-Bus session bus to reach a Secret Service through.
    case noSessionBus(detail: String)
    /// The bus has no Secret Service provider (GNOME Keyring, KWallet, KeePassXC…).
    case serviceUnavailable(detail: String)
    /// libsecret, which the Secret Service calls load at run time, is not installed (or too old):
    /// Debian's `libsecret-1-0`.
    case libsecretMissing(detail: String)
    /// The item or its collection is locked, and prompting to unlock was not allowed.
    case locked(detail: String)
    /// The unlock prompt was dismissed, or could not be shown (headless).
    case promptDismissed
    /// The Secret Service did not answer within the time-out.
    case timedOut(seconds: Double)
    /// The service name, account or label cannot be used: an empty service, NUL bytes, not UTF-8.
    case invalidInput(reason: String)
    /// No collection has the alias (`default` or `session`): no keyring has been created yet.
    case noCollection(alias: String)
    /// A stored secret was read as text but is not UTF-8: read it as `Data`.
    case notText
    /// Anything else the Secret Service reported.
    case failed(detail: String)
    /// No key source can unlock the encrypted vault (no passphrase source, no systemd-creds
    /// slot usable, no cached key); `detail` lists why each could not and the one-line fixes.
    case noKeySource(detail: String)
    /// The passphrase given does not open the vault's passphrase slot.
    case wrongPassphrase(detail: String)
    /// The vault file at `path` is damaged (truncated, a changed byte); it is kept as it is and
    /// is not overwritten by later writes.
    case damaged(path: String, detail: String)
    /// A key source of the vault is set up but failed (systemd-creds refused, a passphrase
    /// command exited non-zero, a key file unreadable or for another vault).
    case keySourceUnavailable(detail: String)
    /// A file-backed store (the vault) could not read or write its files.
    case storageFailed(detail: String)
    /// The backend holds secrets it was given and cannot change them: a credential directory
    /// (`$CREDENTIALS_DIRECTORY` from systemd, `/run/secrets` from Docker or Kubernetes).
    /// `backend` names it; `detail` says where the item is and what to do.
    case readOnly(backend: String, detail: String)
    /// A setting that chooses backends or key sources cannot be used (an unknown backend in
    /// `RIZQ_SECRETS_BACKEND`, a config file that is not JSON); `detail` names the setting,
    /// where it came from, and the values it takes.
    case invalidConfiguration(detail: String)
    /// A write was refused because a backend that reads find first (`backend`: a credential
    /// folder delivered by the host) holds the account: the written copy would never be read.
    /// Nothing was written; `detail` says where the account is and what to do.
    case shadowed(backend: String, detail: String)
    /// A file or folder a backend reads is not to be trusted, and was not read: another user's,
    /// writable (or, for a secret, readable) by others, a link or a FIFO where a file should be
    /// — or a vault whose contents are not authenticated by its own key (forged, or another
    /// vault's). `detail` says which check failed and the fix.
    case untrusted(path: String, detail: String)
    /// A secret call did not finish within the caller's deadline (`seconds`); `detail` says what
    /// was running. The work was not cancelled: it may still take effect.
    case deadlineExceeded(seconds: Double, detail: String)
}

extension SecretError: CustomStringConvertible, CustomDebugStringConvertible {
    /// One line: the cause and the fix.
    public var description: String {
        switch self {
        case .noSessionBus(let detail):
            return "no D-Bus session bus (\(detail)); run inside a desktop session, or start one with `dbus-run-session -- your-command`"
        case .serviceUnavailable(let detail):
            return "no Secret Service on the session bus (\(detail)); start one, e.g. `gnome-keyring-daemon --start --components=secrets`, or install gnome-keyring, KeePassXC or KWallet"
        case .libsecretMissing(let detail):
            // The detail is the loader's finding with its fix; nothing is wrong with the bus.
            return detail
        case .locked(let detail):
            return "the keyring is locked (\(detail)); unlock it (log in to the desktop, or `printf 'PASSWORD' | gnome-keyring-daemon --unlock --components=secrets` on a headless machine), or create the store with allowsPrompt: true to let the keyring ask for its password"
        case .promptDismissed:
            return "the unlock prompt was dismissed or could not be shown; unlock the keyring and try again"
        case .timedOut(let seconds):
            return "the Secret Service did not answer within \(seconds) s; check that the keyring daemon is not frozen (restart it), then try again"
        case .invalidInput(let reason):
            return "invalid secret request: \(reason)"
        case .noCollection(let alias):
            return "the Secret Service has no '\(alias)' keyring; create one (e.g. `gnome-keyring-daemon --unlock` with a password on stdin creates 'login'), or use the session collection"
        case .notText:
            return "the stored secret is not UTF-8 text; read it as Data"
        case .failed(let detail):
            return "the Secret Service failed: \(detail)"
        case .noKeySource(let detail), .wrongPassphrase(let detail), .damaged(_, let detail), .keySourceUnavailable(let detail),
            .storageFailed(let detail), .untrusted(_, let detail):
            // The vault's own message already says what happened and what to do.
            return detail
        case .readOnly(let backend, let detail):
            return "the \(backend) backend is read-only: \(detail)"
        case .shadowed(_, let detail):
            return detail
        case .invalidConfiguration(let detail):
            return "invalid secrets configuration: \(detail)"
        case .deadlineExceeded(let seconds, let detail):
            return "the secret call did not finish within \(seconds) s (\(detail)); it may still take effect: check that nothing it waits for is stuck (a frozen keyring daemon, a passphrase command waiting for input, a hung file system), then try again"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String { "SecretError: " + description }
}
