import Foundation
import RizqCore

/// Moving a service's items from one backend to another.
extension ChainedSecretStore {
    /// Copies every account of `from` to `to` (and deletes it from `from` with `deleteSource`),
    /// journaled so that a `kill -9` at any moment followed by a rerun ends with every account
    /// moved once and none lost (`MigrationJournal`). Each copy is read back and compared
    /// before anything is deleted. An account `to` already holds with a different secret is a
    /// ``SecretMigrationReport/Outcome/conflict`` and is left alone in both, unless `overwrite`.
    /// A finished migration (not a dry run) makes `to` the remembered write target, so that new
    /// secrets go where the others now are. `progress` hears of each step as it is recorded.
    ///
    /// Runs on the calling thread, for as long as it takes (each backend call has its own bounds).
    /// Labels are not carried over (the destination's default label is used); a secret that is
    /// UTF-8 is stored as text.
    public func migrate(
        from: SecretBackendKind, to: SecretBackendKind, deleteSource: Bool = false, dryRun: Bool = false, overwrite: Bool = false,
        progress: (_ account: String, _ step: String) -> Void = { _, _ in }
    ) throws(SecretError) -> SecretMigrationReport {
        guard from != to else { throw .invalidConfiguration(detail: "--from and --to both name \(from.rawValue); name two different backends") }
        guard to.isWritable else {
            throw .readOnly(backend: to.rawValue, detail: "it cannot be a migration's destination; migrate to secret-service, vault or plaintext")
        }
        if deleteSource, !from.isWritable {
            throw .readOnly(backend: from.rawValue, detail: "its items cannot be deleted after the copy; migrate without --delete-source")
        }
        _ = try settingsResult.get()
        let source = store(for: from)
        let destination = store(for: to)
        let current = try source.accounts()
        guard !dryRun else { return try preview(current, from: from, to: to, source: source, destination: destination, deleteSource: deleteSource) }

        guard let path = try? vault.layout().migrationJournal else {
            throw .invalidConfiguration(detail: "the service name '\(service)' cannot name a folder for the migration's journal")
        }
        let journal = try MigrationJournal(path: path, from: from, to: to, deleteSource: deleteSource, current: current)
        var items: [SecretMigrationReport.Item] = []
        for account in journal.plan.accounts {
            if journal.deleted.contains(account) {
                items.append(.init(account: account, outcome: .copied, deletedFromSource: true))
                continue
            }
            guard let secret = try source.secretBytes(forAccount: account) else {
                if journal.copied.contains(account) {
                    // Copied, then deleted from the source, before the journal heard of the delete.
                    if deleteSource { try journal.recordDeleted(account) }
                    items.append(.init(account: account, outcome: .copied, deletedFromSource: deleteSource))
                } else {
                    items.append(.init(account: account, outcome: .vanished, deletedFromSource: false))
                }
                continue
            }
            let outcome: SecretMigrationReport.Outcome
            switch try destination.secretBytes(forAccount: account) {
            case secret?:
                outcome = .alreadyThere
            case .some where !overwrite && !journal.copied.contains(account):
                items.append(.init(account: account, outcome: .conflict, deletedFromSource: false))
                progress(account, "conflict")
                continue
            default:
                try copy(secret, account: account, from: from, to: destination)
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
        try remember(SecretWriteTarget(backend: to, origin: .remembered, reason: "the destination of `secret migrate --from \(from.rawValue) --to \(to.rawValue)`"), replacing: true)
        automaticChoice.withLock { $0 = nil }
        return SecretMigrationReport(from: from, to: to, dryRun: false, resumed: journal.resumed, items: items)
    }

    /// Writes `secret` to `destination` and reads it back.
    private func copy(_ secret: Data, account: String, from: SecretBackendKind, to destination: any SecretStore) throws(SecretError) {
        var isText = String(data: secret, encoding: .utf8) != nil
        var label: String?
        if from == .vault, let item = try? vault.item(forAccount: account) {
            isText = item.isText
            label = item.label
        }
        try destination.storeSecret(secret, isText: isText, forAccount: account, label: label)
        guard try destination.secretBytes(forAccount: account) == secret else {
            throw .storageFailed(detail: "'\(account)' read back from the destination differs from what was written; nothing was deleted: check the destination, then run the migration again")
        }
    }

    private func preview(
        _ accounts: [String], from: SecretBackendKind, to: SecretBackendKind, source: any SecretStore, destination: any SecretStore, deleteSource: Bool
    ) throws(SecretError) -> SecretMigrationReport {
        var items: [SecretMigrationReport.Item] = []
        for account in accounts {
            guard let secret = try source.secretBytes(forAccount: account) else { continue }
            switch try destination.secretBytes(forAccount: account) {
            case secret?: items.append(.init(account: account, outcome: .alreadyThere, deletedFromSource: deleteSource))
            case .some: items.append(.init(account: account, outcome: .conflict, deletedFromSource: false))
            case nil: items.append(.init(account: account, outcome: .wouldCopy, deletedFromSource: deleteSource))
            }
        }
        return SecretMigrationReport(from: from, to: to, dryRun: true, resumed: false, items: items)
    }
}
