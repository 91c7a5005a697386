#if Secrets
import RizqCore

/// Why the vault could not be read, written, unlocked or locked.
///
/// Each message says what happened and what to do. None ever holds a secret, a passphrase, an
/// identity or an account name of the vault (those live only inside its ciphertext); paths and
/// the service name are not secret. At the `SecretStore` boundary each case maps to a
/// `SecretError` (see ``secretError``).
public enum VaultError: Error, Sendable, Equatable {
    /// The service name cannot name a vault folder (empty, `/`, `.`, `..`, NUL, too long).
    case invalidService(reason: String)
    /// The account, label or secret cannot be stored (the same checks as every `SecretStore`).
    case invalidInput(reason: String)
    /// There is no vault for this service yet (`unlock`, `lock` and slot changes need one).
    case notCreated(folder: String)
    /// ``VaultSecretStore/create(slots:)`` found a vault already there.
    case alreadyExists(folder: String)
    /// No key source can give the vault's identity; `tried` says why each could not.
    case noKeySource(service: String, tried: [String])
    /// The passphrase does not open the passphrase slot.
    case wrongPassphrase(slot: String)
    /// A key source is set up but failed: `systemd-creds` refused, a passphrase command exited
    /// non-zero, a key file is unreadable. Never a reason to try a weaker store.
    case keySourceFailed(source: VaultKeySource, detail: String)
    /// A key source gave an identity that is not this vault's (its `recipient.txt` names another).
    case wrongKey(source: VaultKeySource)
    /// `vault.age` cannot be decrypted: truncated, a changed byte, not an age file, or contents
    /// that are not the vault's JSON. It is kept as it is; nothing overwrites it until
    /// ``VaultSecretStore/setAsideDamagedVault()`` moves it aside.
    case damaged(path: String, reason: String)
    /// A slot file (`slots/…`) is damaged.
    case damagedSlot(path: String, reason: String)
    /// A file or folder operation failed.
    case fileSystem(path: String, operation: String, reason: String)
    /// A vault folder is not safe to use: a symbolic link, not a folder, or owned by another user.
    case unsafeFolder(path: String, reason: String)
    /// A file or folder the vault reads is not to be trusted: another user's, open to others, a
    /// link or a FIFO where a file should be (the file layer's `FileTrust`); the reason says which
    /// check failed and the fix.
    case untrusted(path: String, reason: String)
    /// A key-source command did not finish within its deadline and was killed.
    case timedOut(command: String, seconds: Double)
    /// A slot change that would leave the vault unopenable, or name an unknown slot.
    case invalidSlotChange(reason: String)
    /// `vault.age` decrypts, but its contents do not carry the seal only the vault's identity can
    /// make (the sealed `VaultContents`): someone who had only the public key wrote them, they were
    /// copied from another service's vault, or this machine saw the vault sealed and finds it in
    /// the old unsealed format. Left as it is.
    case unauthenticated(path: String, reason: String)
    /// `vault.age` is older than what this machine has seen (its `VaultGenerationRecord`): an
    /// older copy was put back. Left as it is; ``VaultSecretStore/acceptRestoredVault()`` takes
    /// it when you restored it on purpose.
    case rolledBack(path: String, reason: String)
    /// The write would make `vault.age` `size` bytes, over the `limit` a write may produce (a
    /// read accepts twice that, so that a vault that grew past it can still be read and shrunk);
    /// `room`: the largest secret that would still fit, when known.
    case vaultFull(path: String, size: Int, limit: Int, room: Int?)
    /// A setting of ``VaultConfiguration`` is out of range (a scrypt work factor a read would refuse).
    case invalidConfiguration(reason: String)
}

extension VaultError: CustomStringConvertible, CustomDebugStringConvertible {
    /// One line: the cause and the fix.
    public var description: String {
        switch self {
        case .invalidService(let reason):
            return "the service name cannot name a vault: \(reason)"
        case .invalidInput(let reason):
            return "invalid secret request: \(reason)"
        case .notCreated(let folder):
            return "there is no vault at \(folder); store a secret (or call create(slots:)) to make one"
        case .alreadyExists(let folder):
            return "a vault already exists at \(folder); use it, or add a key slot to it with addSlot(_:)"
        case .noKeySource(let service, let tried):
            let reasons = tried.isEmpty ? "" : " (\(tried.joined(separator: "; ")))"
            return "no key source can unlock the vault of '\(service)'\(reasons); set RIZQ_SECRETS_PASSPHRASE_FILE (or _FD, _COMMAND) to the passphrase, run `rizq-prefs secret unlock` once per boot, run as root to use systemd-creds, or use a desktop session"
        case .wrongPassphrase(let slot):
            return "the passphrase does not open \(slot); check RIZQ_SECRETS_PASSPHRASE_FILE / _FD / _COMMAND (a trailing newline is ignored) and try again"
        case .keySourceFailed(let source, let detail):
            return "the \(source.rawValue) key source failed: \(detail)"
        case .wrongKey(let source):
            return "the \(source.rawValue) key source holds an identity that is not this vault's (recipient.txt names another); point it at this vault's key"
        case .damaged(let path, let reason):
            return "the vault \(path) is damaged (\(reason)); it was left as it is: restore it from a backup, or set it aside with setAsideDamagedVault() (CLI: --force) to start an empty vault"
        case .damagedSlot(let path, let reason):
            return "the key slot \(path) is damaged (\(reason)); unlock with another slot and add this one again"
        case .fileSystem(let path, let operation, let reason):
            return "cannot \(operation) \(path): \(reason)"
        case .unsafeFolder(let path, let reason):
            return "refusing to use \(path): \(reason); move it away or fix its owner and mode (0700)"
        case .untrusted(let path, let reason):
            return "refusing to use \(path): \(reason)"
        case .timedOut(let command, let seconds):
            return "\(command) did not finish within \(seconds) s and was stopped; check that it does not wait for input"
        case .invalidSlotChange(let reason):
            return "cannot change the key slots: \(reason)"
        case .unauthenticated(let path, let reason):
            return "refusing the vault \(path): \(reason); it was left as it is (move it aside with setAsideDamagedVault(), CLI: `secret set --force`, to start an empty vault with the same key)"
        case .rolledBack(let path, let reason):
            return "refusing the vault \(path): \(reason); it was left as it is"
        case .vaultFull(let path, let size, let limit, let room):
            let fits = room.map { $0 > 0 ? "; a secret of at most about \(FileWords.size(Int64($0))) (\($0) bytes) still fits" : "; no more room is left" } ?? ""
            return "storing this would make the vault \(path) \(size) bytes, over the \(FileWords.size(Int64(limit))) (\(limit) bytes) a vault may hold\(fits); nothing was written: delete secrets you no longer need (`rizq-prefs secret delete`), or keep large data in a file and store its key"
        case .invalidConfiguration(let reason):
            return "the vault's configuration is invalid: \(reason)"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String { "VaultError: " + description }

    /// The `SecretError` a `SecretStore` caller sees.
    public var secretError: SecretError {
        switch self {
        case .invalidService(let reason), .invalidInput(let reason):
            return .invalidInput(reason: reason)
        case .noKeySource:
            return .noKeySource(detail: description)
        case .wrongPassphrase:
            return .wrongPassphrase(detail: description)
        case .damaged(let path, _):
            return .damaged(path: path, detail: description)
        case .keySourceFailed, .wrongKey, .timedOut, .damagedSlot:
            return .keySourceUnavailable(detail: description)
        case .untrusted(let path, _), .unsafeFolder(let path, _), .unauthenticated(let path, _), .rolledBack(let path, _):
            return .untrusted(path: path, detail: description)
        case .vaultFull:
            return .invalidInput(reason: description)
        case .invalidConfiguration:
            return .invalidConfiguration(detail: description)
        case .notCreated, .alreadyExists, .fileSystem, .invalidSlotChange:
            return .storageFailed(detail: description)
        }
    }
}
#endif
