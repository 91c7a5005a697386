#if Secrets
import Foundation
import RizqCore
import RizqSecrets
#if canImport(Glibc)
import Glibc
#endif

/// What the next import did with the journal of one that was killed.
package struct ImportRecovery: Sendable {
    /// The journal as it was found.
    package var journal: ImportJournal.Unfinished
    /// The import had recorded itself before it was killed: it was complete, nothing to undo.
    package var wasComplete = false
    /// The secrets it had created, now removed.
    package var removed: [SecretAddress] = []
    /// The secrets it was about to create that are not there (the kill came before the write).
    package var absent: [SecretAddress] = []
    /// The accounts that held a secret before the import and that it may have replaced: the
    /// journal holds no value, so the earlier one cannot be brought back.
    package var replaced: [SecretAddress] = []
    /// What could not be removed, and why (the journal is kept for the next try).
    package var failed: [(account: SecretAddress, reason: String)] = []

    /// Whether everything the journal named is settled (the journal was removed).
    package var isSettled: Bool { failed.isEmpty }

    /// One line for the user: what was found, what was done, what is left to do.
    package var summary: String {
        if let folder = journal.untrustedFolder {
            let names = journal.secrets.map { SecretAddress(service: $0.service, account: $0.account).description }
            return "a journal of an \(journal.title) of app \(journal.appID) was found at \(journal.path), "
                + "\(SandboxReach.describe(folder)) (where releases before this one kept journals): a sandboxed app could have written it, so it was not acted on and nothing was deleted; "
                + (names.isEmpty ? "it named no secret" : "it named \(names.count) secret(s): \(names.joined(separator: ", ")) — if an import of this app was killed before you upgraded, check them with `rizq-prefs secret get` and remove those it left")
                + "; the journal was removed"
        }
        if wasComplete { return "an earlier \(journal.title) of app \(journal.appID) had finished before it was stopped; its journal was removed" }
        var parts: [String] = []
        func names(_ accounts: [SecretAddress]) -> String { accounts.map(\.description).joined(separator: ", ") }
        if !removed.isEmpty { parts.append("removed the \(removed.count) secret(s) it had written: \(names(removed))") }
        if !absent.isEmpty { parts.append("\(names(absent)) had not been written") }
        if !replaced.isEmpty {
            parts.append("\(names(replaced)) held a secret before the import, which may have replaced it: the earlier secret cannot be brought back (the journal holds no value): check it with `rizq-prefs secret get`")
        }
        if !failed.isEmpty {
            parts.append("could not remove " + failed.map { "\($0.account) (\($0.reason))" }.joined(separator: ", ") + ": the journal is kept, run `rizq-prefs import-app --app \(journal.appID) --recover` once the secret store answers")
        }
        if parts.isEmpty { parts.append("it had written no secret") }
        var text = "an earlier \(journal.title) of app \(journal.appID) was stopped before it finished (killed) and recorded nothing: " + parts.joined(separator: "; ")
        let suites = journal.suites.filter { !$0.keys.isEmpty }
        if !suites.isEmpty {
            text += "; it may have written these suite keys, which are kept: " + suites.map { "\($0.name): \($0.keys.joined(separator: ", "))" }.joined(separator: "; ")
        }
        return text
    }
}

extension ImportJournal {
    /// Settles the journals that killed imports of `appID` left under `root`: for each (its
    /// lock taken, so that a running import is never touched), the secrets it created are
    /// removed, those it may have replaced are named, and the journal is removed once nothing is
    /// left to do. A journal whose run the record shows as finished is only removed.
    package static func recover(
        appID: String, root: String,
        secretStore: (_ service: String) -> any SecretStore = { ChainedSecretStore(service: $0) }
    ) -> [ImportRecovery] {
        let record = try? ImportRecord(appID: appID, root: root)
        var recoveries: [ImportRecovery] = []
        for found in unfinished(appID: appID, root: root) {
            let recovery = withUnlocked(found.path) { journal -> ImportRecovery in
                var journal = journal
                journal.appID = appID
                journal.untrustedFolder = found.untrustedFolder
                var recovery = ImportRecovery(journal: journal)
                // Data, never an instruction to delete: reported, then removed.
                if journal.untrustedFolder != nil {
                    unlink(journal.path)
                    return recovery
                }
                if let id = journal.importID, let run = journal.run, record?.recordedRun(id) == run {
                    recovery.wasComplete = true
                    unlink(journal.path)
                    return recovery
                }
                // Last written first, as a rollback does.
                for secret in journal.secrets.reversed() {
                    let account = SecretAddress(service: secret.service, account: secret.account)
                    if secret.existed {
                        recovery.replaced.append(account)
                        continue
                    }
                    do {
                        if try secretStore(secret.service).deleteSecret(forAccount: secret.account) {
                            recovery.removed.append(account)
                        } else {
                            recovery.absent.append(account)
                        }
                    } catch {
                        recovery.failed.append((account, "\(error)"))
                    }
                }
                recovery.removed.reverse()
                recovery.absent.reverse()
                recovery.replaced.reverse()
                if recovery.isSettled { unlink(journal.path) }
                return recovery
            }
            if let recovery { recoveries.append(recovery) }
        }
        // A journal whose import was killed before it was renamed into place holds no secret.
        let folder = folder(appID: appID, root: root)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(namePrefix) && name.hasSuffix(nameSuffix + ".tmp") {
            _ = withUnlocked(folder + "/" + name) { _ in unlink(folder + "/" + name) }
        }
        return recoveries
    }
}
#endif
