#if Secrets
/// Why a browser's or Electron app's storage could not be read. Nothing is ever written when
/// one of these is thrown, and the profile itself is never touched.
///
/// Each message names the file or folder (in the user's profile, not the private copy) and
/// says what to do. None holds a stored value.
public enum ProfileError: Error, Sendable, Equatable {
    /// `--from` names neither a known browser nor an existing path.
    case unknownSource(String)
    /// Nothing exists at `path`.
    case notFound(path: String)
    /// `path` exists but is no browser storage that is read here; `reason` says what was looked for.
    case notAProfile(path: String, reason: String)
    /// The browser (or Electron app) has no profile folder in any of the places it uses.
    case browserNotFound(name: String, looked: [String])
    /// The user-data folder has no profile `name`.
    case profileNotFound(name: String, folder: String, available: [String])
    /// The user-data folder holds several profiles and none is the default.
    case profileRequired(folder: String, available: [String])
    /// A file or folder could not be read (permissions, I/O).
    case unreadable(path: String, reason: String)
    /// A file is damaged: a truncated or corrupt LevelDB table or log, a damaged database.
    case damaged(path: String, reason: String)
    /// An SQLite file whose tables are not those of any browser storage read here.
    case wrongSchema(path: String, tables: [String])
    /// The private copy could not be made (disk full, the browser kept rewriting the files).
    case copyFailed(path: String, reason: String)
    /// The storage holds no `localStorage` at all (every origin's keys were removed, or none
    /// was ever stored).
    case noLocalStorage(source: String)
    /// The storage holds several origins and none was chosen.
    case originRequired(source: String, origins: [String])
    /// The chosen origin is not in the storage.
    case originNotFound(source: String, origin: String, origins: [String])
    /// A kind of storage whose reader is not part of this build (yet).
    case unsupported(path: String, reason: String)
}

extension ProfileError: CustomStringConvertible {
    /// One line: where, what, and what to do.
    public var description: String {
        switch self {
        case .unknownSource(let source):
            return "'\(source)' is neither a browser (chrome, chromium, brave, edge, vivaldi, firefox, electron:<AppName>) nor an existing file or folder; give one of those, or the path of a profile folder, a 'Local Storage/leveldb' folder, or a .localstorage/.sqlite file"
        case .notFound(let path):
            return "\(path) does not exist; check the path"
        case .notAProfile(let path, let reason):
            return "\(path) is not a browser profile or storage: \(reason); nothing was imported: give a profile folder (one that holds 'Local Storage'), a 'Local Storage/leveldb' folder, or a .localstorage/.sqlite file"
        case .browserNotFound(let name, let looked):
            return "found no \(name) profile; looked in \(looked.joined(separator: ", ")); give the profile folder's path with --from"
        case .profileNotFound(let name, let folder, let available):
            let list = available.isEmpty ? "it holds no profiles" : "its profiles are \(available.joined(separator: ", "))"
            return "\(folder) has no profile '\(name)'; \(list); choose one of those with --profile"
        case .profileRequired(let folder, let available):
            return "\(folder) holds several profiles (\(available.joined(separator: ", "))) and none is the default; choose one with --profile"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason); check its permissions"
        case .damaged(let path, let reason):
            return "\(path) is damaged: \(reason); nothing was imported: if the browser is running, close it and try again; otherwise restore the file from a backup"
        case .wrongSchema(let path, let tables):
            let found = tables.isEmpty ? "no tables" : "the tables \(tables.joined(separator: ", "))"
            return "\(path) is an SQLite database, but not browser localStorage (it holds \(found)); nothing was imported: give a Chrome/WebKit .localstorage file (table ItemTable) or Firefox's webappsstore.sqlite or ls/data.sqlite"
        case .copyFailed(let path, let reason):
            return "could not make a private copy of \(path): \(reason); nothing was imported"
        case .noLocalStorage(let source):
            return "\(source) holds no localStorage; there is nothing to import"
        case .originRequired(let source, let origins):
            return "\(source) holds localStorage for \(origins.count) origins (\(origins.joined(separator: ", "))); choose one with --origin (--list shows their key counts)"
        case .originNotFound(let source, let origin, let origins):
            let available = origins.isEmpty ? "it holds no origins with localStorage" : "it holds \(origins.joined(separator: ", "))"
            return "\(source) has no origin \(origin); \(available); choose one of those with --origin"
        case .unsupported(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
#endif
