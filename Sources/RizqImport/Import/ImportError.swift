#if Secrets
import RizqPrefs
import RizqSecrets

/// What an import undid after a failure.
public struct ImportRollback: Sendable, Equatable {
    /// Suites whose commits were reverted (their files are as before).
    public var revertedSuites: [String] = []
    /// Secrets the import had written and then deleted.
    public var removedSecrets = 0
    /// Secrets the import had replaced (with `overwrite`) and then put back.
    public var restoredSecrets = 0
    /// What could not be undone, one line each (never a secret value). Empty when the rollback
    /// is complete.
    public var problems: [String] = []
    /// The secrets whose state is unknown: written, or perhaps written (the write timed out), and
    /// then not removed or put back. Check them by hand.
    public var unknownSecrets: [SecretAccount] = []

    /// A Secret Service item: its `service` and `account` attributes (`SecretAddress`, the one
    /// type for an item's address; this name stays for code written before it).
    public typealias SecretAccount = SecretAddress

    /// What an ``UndoLog`` undid, in this report's terms. (Calls to a Secret Service run in
    /// order on one worker: each delete follows the write it undoes.)
    init(_ report: UndoLog.Report) {
        revertedSuites = report.revertedSuites
        for undone in report.undone {
            switch undone {
            case .secretRemoved: removedSecrets += 1
            case .secretRestored: restoredSecrets += 1
            case .suiteReverted: break
            }
        }
        problems = report.problems.map(\.message)
        unknownSecrets = report.problems.compactMap(\.secret)
    }

    /// Whether everything was undone.
    public var isComplete: Bool { problems.isEmpty }

    /// "the suites are as they were and the 2 secrets written were removed".
    var summary: String {
        var parts = ["the suites are as they were"]
        if removedSecrets > 0 { parts.append("the \(removedSecrets) secret(s) written were removed") }
        if restoredSecrets > 0 { parts.append("the \(restoredSecrets) secret(s) replaced were put back") }
        var text = parts.joined(separator: " and ")
        if !problems.isEmpty {
            text = "the rollback is INCOMPLETE: " + problems.joined(separator: "; ")
            if !unknownSecrets.isEmpty {
                let services = Array(Set(unknownSecrets.map(\.service))).sorted()
                let commands = services.map { "`rizq-prefs secret list --service \($0)`" }.joined(separator: ", ")
                text += "; the state of \(unknownSecrets.map(\.description).joined(separator: ", ")) is unknown: once the secret store answers, check with \(commands) and remove them with `rizq-prefs secret delete`"
            } else {
                text += "; fix that by hand (`rizq-prefs secret delete`, or restore the suite file)"
            }
        }
        return text
    }
}

/// Why an import stopped. Before any write (bad input, bad plan, a value that does not convert,
/// a suite or the Secret Service that cannot be reached) nothing was changed; after a write
/// failed, the import was rolled back (see ``ImportRollback``) and nothing was recorded.
///
/// Messages never hold a secret value.
public enum ImportError: Error, Sendable, Equatable {
    /// The dump could not be read.
    case dump(ImportDumpError)
    /// The plan could not be used.
    case plan(ImportPlanError)
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
            return "the import was interrupted by \(ImportInterruption.name(of: signal))" + Self.rollbackText(rollback)
        }
    }

    private static func rollbackText(_ rollback: ImportRollback?) -> String {
        guard let rollback else { return "\nnothing was imported" }
        return "\nnothing was imported: " + rollback.summary
    }
}
#endif
