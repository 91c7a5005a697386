#if Secrets
import Foundation
import RizqCore

/// The journal of a `secret move` in progress: `<root>/<service>/migration.journal` (the name
/// the first release gave it, kept so that an interrupted move of that release is finished), 0600, one
/// JSON object per line, each line flushed (`fsync`) before the step it records is counted done.
/// Account names and states only, never a secret.
///
/// ```
/// {"from":"vault","to":"secret-service","deleteSource":true,"accounts":["a","b"]}
/// {"copied":"a"}
/// {"deleted":"a"}
/// ```
///
/// An account is deleted from the source only after its copy was read back from the destination
/// and `copied` was flushed, so a `kill -9` at any moment leaves every account in the source, or
/// in the destination, or both. A rerun reads the journal and goes on: an account the source no
/// longer has but the journal says was copied is in the destination (it was deleted after the
/// copy); one the destination already holds the same is not written again. The journal is
/// removed when the move finishes; a torn last line (the kill came mid-write) is ignored.
final class SecretMoveJournal {
    struct Plan: Codable, Equatable {
        var from: SecretBackendName
        var to: SecretBackendName
        var deleteSource: Bool
        var accounts: [String]
    }

    private struct Step: Codable {
        var copied: String?
        var deleted: String?
    }

    let path: String
    private(set) var plan: Plan
    private(set) var copied: Set<String> = []
    private(set) var deleted: Set<String> = []
    /// Whether an interrupted move's journal was found.
    let resumed: Bool
    /// RizqCore's journal: each line on disk before its step counts, the lock held while this
    /// process moves the accounts (a second `secret move` of the service is refused).
    private let journal: FileJournal

    /// Opens the journal at `path`: an interrupted one from `from` to `to` is read and continued
    /// (with the accounts `current` lists added); one between other backends is an error; else a
    /// new one is started with `current`'s accounts.
    init(path: String, from: SecretBackendName, to: SecretBackendName, deleteSource: Bool, current: [String]) throws(SecretError) {
        self.path = path
        var found: Plan?
        let earlier: (journal: FileJournal, lines: [[UInt8]])?
        do {
            try PrivateFiles.ensureFolder(PrivateFolder.parent(of: path))
            earlier = try FileJournal.resume(path, subject: "secret-move journal")
        } catch let error as VaultError {
            throw error.secretError
        } catch let error as FileError {
            if case .lockTimedOut = error.problem {
                throw .invalidConfiguration(detail: "another process is moving the secrets of this service now (its journal \(path) is locked); wait for it to finish")
            }
            throw error.vaultError.secretError
        } catch {
            throw .storageFailed(detail: "cannot open the secret-move journal \(path): \(error)")
        }
        if let lines = earlier?.lines, let first = lines.first, let plan = try? JSONDecoder().decode(Plan.self, from: Data(first)) {
            guard plan.from == from, plan.to == to else {
                throw .invalidConfiguration(detail: "a move from \(plan.from.rawValue) to \(plan.to.rawValue) was interrupted (its journal is \(path)); finish it first: rizq-prefs secret move --from \(plan.from.rawValue) --to \(plan.to.rawValue)")
            }
            found = plan
            for line in lines.dropFirst() {
                // A line the kill cut short is not among the complete lines: that step is redone.
                guard let step = try? JSONDecoder().decode(Step.self, from: Data(line)) else { continue }
                if let account = step.copied { copied.insert(account) }
                if let account = step.deleted { deleted.insert(account) }
            }
        }
        resumed = found != nil
        var plan = found ?? Plan(from: from, to: to, deleteSource: deleteSource, accounts: [])
        plan.deleteSource = deleteSource
        plan.accounts = Array(Set(plan.accounts).union(current)).sorted()
        self.plan = plan
        // A new journal starts from its plan line; a resumed one is rewritten whole with the
        // steps it had (atomically), then appended to.
        var lines = [Array(try Self.encode(plan))]
        lines += copied.sorted().map { Array((try? Self.encode(Step(copied: $0))) ?? Data()) }
        lines += deleted.sorted().map { Array((try? Self.encode(Step(deleted: $0))) ?? Data()) }
        do {
            if let earlier {
                try earlier.journal.rewrite(lines)
                journal = earlier.journal
            } else {
                journal = try FileJournal.begin(path, lines: lines, subject: "secret-move journal")
            }
        } catch {
            throw error.vaultError.secretError
        }
    }

    /// Records that `account` was copied and read back the same.
    func recordCopied(_ account: String) throws(SecretError) {
        try append(Step(copied: account))
        copied.insert(account)
    }

    /// Records that `account` was deleted from the source.
    func recordDeleted(_ account: String) throws(SecretError) {
        try append(Step(deleted: account))
        deleted.insert(account)
    }

    /// Removes the journal: the move is complete.
    func finish() throws(SecretError) {
        do { try journal.finish() } catch { throw error.vaultError.secretError }
    }

    private func append(_ step: Step) throws(SecretError) {
        do {
            try journal.append(Array(try Self.encode(step)))
        } catch let error as FileError {
            throw .storageFailed(detail: "cannot write the secret-move journal \(path): \(error.reason); nothing was lost: run the move again")
        } catch {
            throw .storageFailed(detail: "cannot write the secret-move journal \(path): \(error); nothing was lost: run the move again")
        }
    }

    private static func encode<Value: Encodable>(_ value: Value) throws(SecretError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return try encoder.encode(value) } catch { throw .storageFailed(detail: "cannot encode a secret-move journal line") }
    }
}
#endif
