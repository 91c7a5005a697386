#if Secrets
#if canImport(Glibc)
import Glibc
#endif
import RizqPrefs
import RizqSecrets

/// Why an import stopped, or why a dump or a plan could not be read: the one error `RizqImport`
/// throws (``ImportDump``, ``ImportPlan`` and ``Importer`` alike). Before any write (bad input, bad plan, a value that does not convert,
/// a suite or the Secret Service that cannot be reached) nothing was changed; after a write
/// failed, the import was rolled back (see ``ImportRollback``) and nothing was recorded.
///
/// Messages never hold a secret value.
public enum ImportError: Error, Sendable, Equatable {
    /// The dump could not be read (``ImportDump``'s initialisers throw this).
    case dump(DumpProblem)
    /// The plan could not be used (``ImportPlan``'s initialisers and
    /// ``ImportPlan/validate(file:)`` throw this).
    case plan(PlanProblem)
    /// An option (a default suite or service) cannot be used.
    case invalidOption(reason: String)
    /// A value does not convert to the type its plan rule gives.
    case conversion(key: String, type: ImportValueType, reason: String)
    /// Two dump keys would go to the same suite key or secret account.
    case conflictingTargets(target: String, keys: [String])
    /// A suite could not be opened or written; `rollback` says what was undone (`nil`: the
    /// failure came before anything was written).
    case suite(SuiteStoreError, rollback: ImportRollback?)
    /// The Secret Service failed; `rollback` as for ``suite(_:rollback:)``.
    case secretService(SecretError, rollback: ImportRollback?)
    /// A stop was asked (SIGINT, SIGTERM, SIGHUP) before the import recorded itself; `rollback`
    /// as for ``suite(_:rollback:)``.
    case interrupted(signal: Int32, rollback: ImportRollback?)
}

extension ImportError: CustomStringConvertible {
    /// One line (two when a rollback happened): the cause and what to do.
    public var description: String {
        switch self {
        case .dump(let error):
            return error.description
        case .plan(let error):
            return error.description
        case .invalidOption(let reason):
            return reason
        case .conversion(let key, let type, let reason):
            return "key '\(key)' does not convert to \(type.rawValue): \(reason); nothing was imported: fix the plan's type for it, or skip it with {\"key\": \"\(key)\", \"to\": \"skip\"}"
        case .conflictingTargets(let target, let keys):
            return "keys \(keys.map { "'\($0)'" }.joined(separator: " and ")) would all go to \(target); nothing was imported: give them different targets in the plan"
        case .suite(.writeFailed(let path, let reason), let rollback?):
            // Not SuiteStoreError's "kept in memory: flush again": the import is over, and its
            // rollback put every suite back. What to do is run the import again.
            return "cannot write suite file \(path): \(reason.replacingOccurrences(of: "flush again", with: "run the import again"))"
                + Self.rollbackText(rollback) + "; free disk space or fix the folder's permissions, then run the import again"
        case .suite(let error, let rollback):
            return error.description + Self.rollbackText(rollback)
        case .secretService(let error, let rollback):
            return error.description + Self.rollbackText(rollback)
        case .interrupted(let signal, let rollback):
            return "the import was interrupted by \(Self.signalName(signal))" + Self.rollbackText(rollback)
        }
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, else `signal N`.
    package static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(number)"
        }
    }

    private static func rollbackText(_ rollback: ImportRollback?) -> String {
        guard let rollback else { return "\nnothing was imported" }
        return "\nnothing was imported: " + rollback.summary
    }
}
#endif
