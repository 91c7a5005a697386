#if Secrets
extension ImportError {
    /// Why a file could not be read as a dump (``ImportError/dump(_:)``). Nothing is ever written
    /// when one of these is thrown.
    ///
    /// Each message names the file, where in it the problem is (byte offset, line and column), and
    /// what to do. None holds a value from the dump.
    public enum DumpProblem: Sendable, Equatable {
        /// The file could not be opened or read.
        case unreadable(file: String, reason: String)
        /// The input is larger than ``ImportDump/maximumSize``.
        case tooLarge(file: String?, size: Int, limit: Int)
        /// The input is not UTF-8 text (a binary file, or another encoding) at `position`.
        case notUTF8(file: String?, position: SourcePosition, hint: String?)
        /// The input is not JSON (or is truncated) at `position`.
        case notJSON(file: String?, position: SourcePosition, reason: String, hint: String?)
        /// The input is JSON, but not in one of the dump formats (or not in the one asked for).
        case wrongShape(file: String?, position: SourcePosition, reason: String)
        /// The file holds several origins and none was chosen.
        case originRequired(file: String?, origins: [String])
        /// The chosen origin is not in the file.
        case originNotFound(file: String?, origin: String, origins: [String])
        /// The input is a property list that cannot be read (or, with `--format plist`, not one).
        case propertyList(PropertyListProblem)
    }
}

extension ImportError.DumpProblem: CustomStringConvertible {
    /// One line: where, what, and what to do.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "cannot read \(file): \(reason); check the path and its permissions"
        case .tooLarge(let file, let size, let limit):
            return "\(name(file)) is \(size) bytes, more than the \(limit / (1 << 20)) MiB a localStorage dump can hold; nothing was imported: export the origin's localStorage alone (see README, \"Importing from localStorage\")"
        case .notUTF8(let file, let position, let hint):
            return "\(name(file)), \(position): not UTF-8 text\(hint.map { " (\($0))" } ?? ""); nothing was imported: give a JSON dump as written by the DevTools one-liner or Playwright's storageState"
        case .notJSON(let file, let position, let reason, let hint):
            return "\(name(file)), \(position): not valid JSON: \(reason)\(hint.map { " (\($0))" } ?? ""); nothing was imported: export the dump again"
        case .wrongShape(let file, let position, let reason):
            return "\(name(file)), \(position): not a localStorage dump: \(reason); nothing was imported: give an object of key → string, [key, value] pairs, a Playwright storageState, Cypress getAllLocalStorage() output or {\"entries\": [[key, value], …]} (or choose one with --format)"
        case .originRequired(let file, let origins):
            return "\(name(file)) holds localStorage for \(origins.count) origins (\(origins.joined(separator: ", "))); choose one with --origin"
        case .originNotFound(let file, let origin, let origins):
            let available = origins.isEmpty ? "it holds no origins with localStorage" : "it holds \(origins.joined(separator: ", "))"
            return "\(name(file)) has no origin \(origin); \(available); choose one of those with --origin"
        case .propertyList(let error):
            return error.description
        }
    }

    private func name(_ file: String?) -> String {
        file ?? "the dump"
    }
}
#endif
