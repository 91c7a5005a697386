#if Secrets
import Foundation
import RizqCore

/// Moving a service's items from one backend to another ("move": "migration" in this package
/// means schema versions only).
extension ChainedSecretStore {
    /// Copies every account of `from` to `to` (and deletes it from `from` with `deleteSource`),
    /// journaled so that a `kill -9` at any moment followed by a rerun ends with every account
    /// moved once and none lost (`SecretMoveJournal`). Each copy is read back and compared
    /// before anything is deleted. An account `to` already holds with a different secret is a
    /// ``SecretMoveReport/Outcome/conflict`` and is left alone in both, unless `overwrite`.
    /// A finished move (not a dry run) makes `to` the remembered write target, so that new
    /// secrets go where the others now are. `progress` hears of each step as it is recorded.
    ///
    /// Runs on the calling thread, for as long as it takes (each backend call has its own bounds).
    /// Labels are not carried over (the destination's default label is used); a secret that is
    /// UTF-8 is stored as text.
    public func move(
        from: SecretBackendName, to: SecretBackendName, deleteSource: Bool = false, dryRun: Bool = false, overwrite: Bool = false,
        progress: (_ account: String, _ step: String) -> Void = { _, _ in }
    ) throws(SecretError) -> SecretMoveReport {
        guard from != to else { throw .invalidConfiguration(detail: "--from and --to both name \(from.rawValue); name two different backends") }
        _ = try settingsResult.get()
        guard let source = backend(named: from) else { throw unknownBackend(from) }
        guard let destination = backend(named: to) else { throw unknownBackend(to) }
        guard destination.isWritable else {
            throw .readOnly(backend: to.rawValue, detail: "it cannot be a move's destination; move to one of \(writableNames)")
        }
        if deleteSource, !source.isWritable {
            throw .readOnly(backend: from.rawValue, detail: "its items cannot be deleted after the copy; move without --delete-source")
        }
        let current = try source.accounts()
        guard !dryRun else { return try preview(current, from: from, to: to, source: source, destination: destination, deleteSource: deleteSource) }

        guard let path = state?.moveJournal else {
            throw .invalidConfiguration(detail: "the service name '\(service)' cannot name a folder for the move's journal")
        }
        let journal = try SecretMoveJournal(path: path, from: from, to: to, deleteSource: deleteSource, current: current)
        var items: [SecretMoveReport.Item] = []
        for account in journal.plan.accounts {
            if journal.deleted.contains(account) {
                items.append(.init(account: account, outcome: .copied, deletedFromSource: true))
                continue
            }
            // An expired secret is not served, so not moved: as if it were not there.
            guard case .found(let secret, let lifetime)? = try source.readSecret(forAccount: account) else {
                if journal.copied.contains(account) {
                    // Copied, then deleted from the source, before the journal heard of the delete.
                    if deleteSource { try journal.recordDeleted(account) }
                    items.append(.init(account: account, outcome: .copied, deletedFromSource: deleteSource))
                } else {
                    items.append(.init(account: account, outcome: .vanished, deletedFromSource: false))
                }
                continue
            }
            let outcome: SecretMoveReport.Outcome
            switch try destination.secretBytes(forAccount: account) {
            case secret?:
                outcome = .alreadyThere
            case .some where !overwrite && !journal.copied.contains(account):
                items.append(.init(account: account, outcome: .conflict, deletedFromSource: false))
                progress(account, "conflict")
                continue
            default:
                try copy(secret, lifetime: lifetime, account: account, from: source, to: destination)
                outcome = .copied
            }
            if !journal.copied.contains(account) { try journal.recordCopied(account) }
            progress(account, outcome.rawValue)
            if deleteSource {
                _ = try source.deleteSecret(forAccount: account)
                try journal.recordDeleted(account)
                progress(account, "deleted")
            }
            items.append(.init(account: account, outcome: outcome, deletedFromSource: deleteSource))
        }
        try journal.finish()
        try remember(SecretWriteTarget(backend: to, origin: .remembered, reason: "the destination of `secret move --from \(from.rawValue) --to \(to.rawValue)`"), replacing: true)
        automaticChoice.withLock { $0 = nil }
        return SecretMoveReport(from: from, to: to, dryRun: false, resumed: journal.resumed, items: items)
    }

    /// Writes `secret` with its lifetime to `destination` and reads it back.
    private func copy(
        _ secret: Data, lifetime: SecretLifetime?, account: String, from source: any SecretBackend, to destination: any SecretStore
    ) throws(SecretError) {
        var isText = String(data: secret, encoding: .utf8) != nil
        var label: String?
        if let details = source.details(ofAccount: account) {
            isText = details.isText
            label = details.label
        }
        try destination.storeSecret(secret, isText: isText, forAccount: account, label: label, lifetime: lifetime)
        guard try destination.secretBytes(forAccount: account) == secret else {
            throw .storageFailed(detail: "'\(account)' read back from the destination differs from what was written; nothing was deleted: check the destination, then run the move again")
        }
    }

    private func preview(
        _ accounts: [String], from: SecretBackendName, to: SecretBackendName, source: any SecretStore, destination: any SecretStore, deleteSource: Bool
    ) throws(SecretError) -> SecretMoveReport {
        var items: [SecretMoveReport.Item] = []
        for account in accounts {
            guard let secret = try source.secretBytes(forAccount: account) else { continue }
            switch try destination.secretBytes(forAccount: account) {
            case secret?: items.append(.init(account: account, outcome: .alreadyThere, deletedFromSource: deleteSource))
            case .some: items.append(.init(account: account, outcome: .conflict, deletedFromSource: false))
            case nil: items.append(.init(account: account, outcome: .wouldCopy, deletedFromSource: deleteSource))
            }
        }
        return SecretMoveReport(from: from, to: to, dryRun: true, resumed: false, items: items)
    }
}

extension ChainedSecretStore {
    /// The name the first releases gave ``move(from:to:deleteSource:dryRun:overwrite:progress:)``.
    @available(*, deprecated, renamed: "move(from:to:deleteSource:dryRun:overwrite:progress:)")
    public func migrate(
        from: SecretBackendName, to: SecretBackendName, deleteSource: Bool = false, dryRun: Bool = false, overwrite: Bool = false,
        progress: (_ account: String, _ step: String) -> Void = { _, _ in }
    ) throws(SecretError) -> SecretMoveReport {
        try move(from: from, to: to, deleteSource: deleteSource, dryRun: dryRun, overwrite: overwrite, progress: progress)
    }
}
#endif
