import Foundation

/// What an all-or-nothing operation wrote outside its own file, so that a failure can undo it,
/// last first: the one mechanism behind a schema migration's and an import's rollback.
///
/// Each step is recorded right after it is written (a secret whose write timed out too: the
/// store may have kept it after the caller gave up). ``undo()`` runs the steps in reverse and
/// reports what it undid and what it could not, naming every secret it may have left behind —
/// never a value.
package struct UndoLog {
    /// One thing undone.
    package enum Undone: Equatable, Sendable {
        /// A suite got back what it held before.
        case suiteReverted(String)
        /// A secret got back the value it had before.
        case secretRestored(service: String, account: String)
        /// A secret that did not exist before was deleted.
        case secretRemoved(service: String, account: String)
    }

    /// A secret's address: enough to find it again, never its value.
    /// A step that could not be undone.
    package struct Problem: Sendable {
        /// What was left, and why, in one phrase.
        package var message: String
        /// The secret that may be left in its store, when the step was a secret's.
        package var secret: SecretAddress?

        package init(message: String, secret: SecretAddress?) {
            self.message = message
            self.secret = secret
        }
    }

    /// What ``undo()`` did.
    package struct Report: Sendable {
        /// What was undone, in the order it was undone.
        package var undone: [Undone] = []
        /// What could not be undone.
        package var problems: [Problem] = []

        /// The suites put back, in the order they were.
        package var revertedSuites: [String] {
            undone.compactMap { if case .suiteReverted(let name) = $0 { name } else { nil } }
        }
    }

    private struct Step {
        /// Undoes the step; `nil` when there was nothing to undo after all.
        let undo: () throws -> Undone?
        /// The problem to report when `undo` throws.
        let failure: (any Error) -> Problem
    }

    private var steps: [Step] = []

    package init() {}

    /// Whether nothing was recorded.
    package var isEmpty: Bool { steps.isEmpty }

    /// Records a step and how to undo it; `failure` words what is left when the undo throws.
    package mutating func record(undo: @escaping () throws -> Undone?, failure: @escaping (any Error) -> Problem) {
        steps.append(Step(undo: undo, failure: failure))
    }

    /// Records a secret written to `store` for `account`, over `previous` (`nil`: there was
    /// none); `uncertain` when the write failed in a way that may still have stored it (a
    /// time-out). The undo puts `previous` back, or deletes the account.
    package mutating func recordSecretWrite(to store: any SecretStore, account: String, previous: Data?, uncertain: Bool = false) {
        let address = SecretAddress(service: store.service, account: account)
        record(
            undo: {
                if let previous {
                    try store.storeSecret(previous, isText: String(data: previous, encoding: .utf8) != nil, forAccount: account, label: nil)
                    return .secretRestored(service: address.service, account: address.account)
                }
                _ = try store.deleteSecret(forAccount: account)
                return .secretRemoved(service: address.service, account: address.account)
            },
            failure: { error in
                let what = previous == nil ? "removed" : "put back"
                let written = uncertain ? "its write timed out, so it may have been stored, and it" : "it"
                let cause: String
                if case .timedOut(let seconds) = error as? SecretError { cause = "no answer within \(seconds) s" } else { cause = "\(error)" }
                return Problem(
                    message: "secret store \(address.service), account \(address.account): \(written) could not be \(what) (\(cause))",
                    secret: address)
            })
    }

    /// Undoes every step, last first; goes on past a step that fails.
    package func undo() -> Report {
        var report = Report()
        for step in steps.reversed() {
            do {
                if let undone = try step.undo() { report.undone.append(undone) }
            } catch {
                report.problems.append(step.failure(error))
            }
        }
        return report
    }
}
