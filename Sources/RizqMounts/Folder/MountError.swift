import RizqCore

/// Why a mounted folder (a Kubernetes ConfigMap or Secret volume, Docker's `/run/secrets`,
/// systemd's `$CREDENTIALS_DIRECTORY`, any folder of one file per key) could not be read or
/// watched as a whole, or why a `NAME_FILE` variable (``FileVariable``) gave no value. Each
/// message names the folder or the variables, what was found and what to do.
///
/// A single file that is refused (another user's, writable by others, too large) is not an
/// error of the folder: the snapshot keeps the other keys, and asking for that key throws
/// ``refusedKey(folder:key:reason:)``. No message ever holds a value.
public enum MountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder is not there (nothing is mounted at the path yet, or the path is wrong).
    case missing(folder: String)
    /// The folder, a folder in it, or its `..data` link is not to be trusted: another user's,
    /// writable by others, a link where none is followed, pointing outside the folder.
    case untrusted(path: String, reason: String)
    /// A system call failed on the folder (it is not a folder, it cannot be listed).
    case unreadable(path: String, reason: String)
    /// The folder holds more than the limits allow (files, total bytes, depth).
    case overLimit(folder: String, reason: String)
    /// Every attempt to read one generation saw `..data` move on, or a plain folder's files
    /// change, before the read ended.
    case keepsChanging(folder: String, attempts: Int)
    /// This key's file is in the folder but was refused: the reason says why and what to do.
    case refusedKey(folder: String, key: String, reason: String)
    /// The folder cannot be watched for changes (no inotify instance or watch left, too many
    /// folders watched): the reason names the limit to raise.
    case cannotWatch(folder: String, reason: String)
    /// Both `NAME` and `NAME_FILE` are set (and not empty): which one is meant is not guessed.
    case variableBothSet(name: String)
    /// The file `NAME_FILE` names cannot be read, or was refused.
    case variableFileUnreadable(name: String, path: String, reason: String)
    /// The value of `NAME` is not UTF-8 text, or holds a NUL byte (`path` empty: it is `NAME`
    /// itself, not a file `NAME_FILE` named).
    case variableNotText(name: String, path: String)

    /// One line: what happened, to which folder or variable, and what to do.
    public var description: String {
        switch self {
        case .missing(let folder):
            return "the mounted folder \(folder) does not exist; check the path, or that the volume is mounted there"
        case .untrusted(let path, let reason):
            return "refusing the mounted folder at \(path): \(reason)"
        case .unreadable(let path, let reason):
            return "cannot read the mounted folder at \(path): \(reason)"
        case .overLimit(let folder, let reason):
            return "the mounted folder \(folder) is over the limits of a folder of settings: \(reason)"
        case .keepsChanging(let folder, let attempts):
            return "the mounted folder \(folder) changed during each of \(attempts) reads (its ..data link moved on, or its files were rewritten); whatever writes it is writing without pause: try again, or stop that writer"
        case .refusedKey(let folder, let key, let reason):
            return "refusing the file '\(key)' in the mounted folder \(folder): \(reason)"
        case .cannotWatch(let folder, let reason):
            return "cannot watch the mounted folder \(folder) for changes: \(reason)"
        case .variableBothSet(let name):
            return "both \(name) and \(name)_FILE are set, but they exclude each other; unset one of them"
        case .variableFileUnreadable(let name, let path, let reason):
            return "\(name)_FILE names \(path), which cannot be read: \(reason)"
        case .variableNotText(let name, let path):
            return path.isEmpty
                ? "\(name) is not UTF-8 text"
                : "\(name)_FILE names \(path), whose bytes are not UTF-8 text (or hold a NUL byte); store the value as text"
        }
    }
}

/// The name ``MountError`` had when it held only a folder's failures.
@available(*, deprecated, renamed: "MountError")
public typealias MountedFolderError = MountError
