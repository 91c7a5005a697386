import Foundation
import RizqJSON

/// Why a suite could not be opened, read, or written, why a value was refused, or why a document
/// given to it (JSON to import, a schema) could not be used: the one error of `RizqPrefs`, beside
/// ``MigrationError`` for versioned suites.
///
/// Every message says what happened and what to do about it. Nothing that was already stored
/// is lost when one of these is thrown: a refused write leaves the file as it was.
public enum SuiteStoreError: Error, Sendable, Equatable {
    /// The longest suite name, in bytes of UTF-8 (``SuiteLocation/maximumNameLength``): stated
    /// here, beside the error that names the rule.
    public static let maximumSuiteNameLength = 200

    /// The suite name cannot name a file: empty, too long, or holding `/`, `..`, NUL or a
    /// control character. `reason` says which.
    case invalidSuiteName(name: String, reason: String)
    /// The app id (from `RIZQ_PREFS_APP_ID`, ``SuiteStore/configure(appID:)`` or the
    /// executable's name) cannot name a folder.
    case invalidAppID(appID: String, reason: String)
    /// The suite file or its folder exists but cannot be read (permissions, or not a file).
    case unreadable(path: String, reason: String)
    /// The suite file could not be written; the previous file is untouched and the change is
    /// still pending in memory.
    case writeFailed(path: String, reason: String)
    /// The value cannot be stored: a type a suite cannot hold, nested too deep, a date beyond
    /// the years ±999,999, text that is not valid Unicode.
    case invalidValue(key: String, reason: String)
    /// Another process held the suite's lock (`lockFile`) longer than this process waits for it
    /// (``SuiteStore/lockTimeout``, `waited`, as words: "10 s"); `holders` names it — pid,
    /// command line, whether it is stopped — and what to do. Nothing was written; the change is
    /// still pending in memory.
    case lockTimedOut(path: String, lockFile: String, waited: String, holders: String)
    /// An administrator forced the key's value in the file `path` (the managed layer,
    /// ``SuiteStore/objectIsForced(forKey:)``): no write changes what is read, so a throwing write
    /// refuses it and nothing is written.
    case forced(key: String, path: String)
    /// The suite's schema (or the ``Key``'s declaration) does not allow the value: `reason` says
    /// what the key takes. Nothing is written.
    case notAllowed(key: String, reason: String)
    /// The text given to ``SuiteStore/importJSON(_:replacing:salvaging:)`` is not JSON: what is
    /// wrong, and where (one-based line and column). Nothing was imported.
    case importNotJSON(reason: String, line: Int, column: Int)
    /// The text given to ``SuiteStore/importJSON(_:replacing:salvaging:)`` is JSON, but not an
    /// object of keys and values (`kindName`: `array`, `string`, …). Nothing was imported.
    case importNotAnObject(kindName: String)
    /// The object given to ``SuiteStore/importJSON(_:replacing:salvaging:)`` records a schema
    /// version (its ``SuiteMigrations/versionKey`` member, as in a whole suite file) other than
    /// the suite's: its keys have that version's shape. Nothing was imported.
    case importOtherSchemaVersion(recorded: Int, suite: Int)
    /// A schema document (``PrefSchema/init(json:)``) is not JSON: what is wrong, and where
    /// (one-based line and column).
    case schemaNotJSON(reason: String, line: Int, column: Int)
    /// A schema document is not an object, or a keyword has a value of the wrong kind (`where`:
    /// the keyword's place, as `properties.volume.minimum`).
    case invalidSchema(where: String, reason: String)
    /// A schema document is larger than ``PrefSchema/maximumFileSize`` or describes more than
    /// ``PrefSchema/maximumProperties`` keys.
    case schemaTooLarge(reason: String)
}

extension SuiteStoreError: CustomStringConvertible, LocalizedError {
    /// One line: the cause and the fix.
    public var description: String {
        switch self {
        case .invalidSuiteName(let name, let reason):
            // The rules SuiteLocation.problem(withName:) enforces, all of them and no others.
            return "invalid suite name \(quoted(name)): \(reason); a suite name is 1 to \(SuiteStoreError.maximumSuiteNameLength) bytes of UTF-8 with no '/', no '..', no control character, and does not start with '.' (app-group suites start with 'group.'), as in 'group.com.example.app'"
        case .invalidAppID(let appID, let reason):
            return "invalid app id \(quoted(appID)): \(reason); set RIZQ_PREFS_APP_ID to a name such as 'com.example.app'"
        // A reason that names its own fix says it after "; " (a symbolic link, a FIFO, a full
        // disk); the general advice is for the others (an errno's words).
        case .unreadable(let path, let reason):
            let fix = reason.contains("; ") ? "" : "; fix its permissions (it should be yours, mode 0600, in a folder of mode 0700) or move it away"
            return "cannot read suite file \(path): \(reason)\(fix)"
        case .writeFailed(let path, let reason):
            let fix = reason.contains("; ") ? "flush again once that is done" : "free disk space or fix the folder's permissions, then flush again"
            return "cannot write suite file \(path): \(reason); the previous file is intact and the change is kept in memory: \(fix)"
        case .invalidValue(let key, let reason):
            return "cannot store key \(quoted(key)): \(reason); nothing was written"
        case .lockTimedOut(let path, let lockFile, let waited, let holders):
            return "cannot write suite file \(path): another process held its lock (\(lockFile)) for all of the \(waited) this process waits: \(holders); the previous file is intact and the change is kept in memory: flush again once the lock is free (\(LockTimeout.environmentName) or SuiteStore.lockTimeout sets how long to wait)"
        case .forced(let key, let path):
            return "cannot change key \(quoted(key)): an administrator locked it in \(path), so every reader gets the value set there whatever is written; nothing was written (ask the administrator, or read it with objectIsForced(forKey:) / 'rizq-prefs writable' before offering to change it)"
        case .notAllowed(let key, let reason):
            return "cannot store key \(quoted(key)): \(reason); nothing was written"
        case .importNotJSON(let reason, let line, let column):
            return "not valid JSON: line \(line), column \(column): \(reason); nothing was imported: repair the text there"
        case .importNotAnObject(let kindName):
            return "the JSON is \(kindName == "array" ? "an" : "a") \(kindName), not an object; an import takes an object of keys and values, as an export writes"
        case .importOtherSchemaVersion(let recorded, let suite):
            return "the JSON records schema version \(recorded) (its \"\(SchemaVersionMember.key)\" member) and the suite is at version \(suite): its keys have another shape; import it into a suite of version \(recorded), or remove the member (jq 'del(.\"\(SchemaVersionMember.key)\")') to import the keys as they are; nothing was imported"
        case .schemaNotJSON(let reason, let line, let column):
            return "the schema is not valid JSON: line \(line), column \(column): \(reason); repair it there (any JSON Schema validator points at the same place)"
        case .invalidSchema(let place, let reason):
            return "the schema's \(place) \(reason); a schema is a JSON Schema object whose \"properties\" describe the keys"
        case .schemaTooLarge(let reason):
            return "the schema is too large: \(reason)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    private func quoted(_ text: String) -> String {
        let printable = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
        return "'" + printable.joined() + "'"
    }
}

extension SuiteStoreError {
    /// A value of the table that JSON cannot hold, found while encoding the file.
    static func invalid(_ error: JSONWriter.Unrepresentable) -> SuiteStoreError {
        .invalidValue(key: String(error.path.dropFirst()), reason: error.description)
    }
}
