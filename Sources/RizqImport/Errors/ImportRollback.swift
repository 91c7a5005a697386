#if Secrets
import RizqCore
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
#endif
