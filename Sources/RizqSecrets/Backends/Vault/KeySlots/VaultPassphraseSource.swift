#if Secrets
/// Where the vault's passphrase comes from. With ``VaultConfiguration/fromEnvironment(_:)`` the
/// sources are `RIZQ_SECRETS_PASSPHRASE_FILE`, `RIZQ_SECRETS_PASSPHRASE_FD` and
/// `RIZQ_SECRETS_PASSPHRASE_COMMAND`, in that order; the terminal only when the app asks for it.
///
/// A passphrase never travels in an argument list or an environment variable's value: a file, an
/// inherited descriptor, a command's stdout, or the terminal with echo off. One trailing newline
/// (`\n` or `\r\n`) is dropped, as a file written by `echo` ends with one.
public enum VaultPassphraseSource: Sendable, Equatable, Codable {
    /// A file holding the passphrase (e.g. a mounted secret, mode 0600 or 0400).
    case file(String)
    /// An inherited file descriptor to read to its end, once per process (e.g. `3<file`).
    case fileDescriptor(Int32)
    /// A shell command whose stdout is the passphrase, run with `/bin/sh -c` (e.g.
    /// `pass show rizq/vault`); a non-zero exit is an error, never a fall-through.
    case command(String)
    /// The controlling terminal (`/dev/tty`), echo off. Only used when listed explicitly.
    case terminal

    /// A short name for messages and statuses (never the passphrase).
    var summary: String {
        switch self {
        case .file(let path): return "the passphrase file \(path)"
        case .fileDescriptor(let fd): return "file descriptor \(fd)"
        case .command: return "the passphrase command"
        case .terminal: return "the terminal"
        }
    }
}
#endif
