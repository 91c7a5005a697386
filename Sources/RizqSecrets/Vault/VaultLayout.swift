#if Secrets
import Foundation

/// Where one service's vault lives: `<root>/<service>/` holding `vault.age`, `recipient.txt`,
/// `lock` and `slots/`. Only the service name is visible on disk; account names are inside the
/// ciphertext. The chain keeps its marker (`backend.json`, the remembered write target) and a
/// migration's journal there too, and the plain-text backend, when named, its file.
struct VaultLayout: Sendable {
    let service: String
    let folder: String

    var vault: String { folder + "/vault.age" }
    var recipient: String { folder + "/recipient.txt" }
    var lock: String { folder + "/lock" }
    var slots: String { folder + "/slots" }
    var passphraseSlot: String { slots + "/passphrase.age" }
    var systemdSlot: String { slots + "/systemd.cred" }
    /// The chain's remembered write target (no secret in it).
    var marker: String { folder + "/backend.json" }
    /// An unfinished `secret move`'s journal (its file keeps the first release's name): account names and states, never secrets.
    var migrationJournal: String { folder + "/migration.journal" }
    /// The plain-text backend's file (only when that backend is named explicitly).
    var plaintext: String { folder + "/plaintext.json" }

    /// The layout of `service` under `root`, after checking that the name can be a folder name.
    init(service: String, root: String) throws(VaultError) {
        if service.isEmpty { throw .invalidService(reason: "it is empty; give the app id or another name") }
        if service.utf8.contains(0) { throw .invalidService(reason: "it contains a NUL byte") }
        if service.contains("/") { throw .invalidService(reason: "it contains '/'") }
        if service == "." || service == ".." { throw .invalidService(reason: "'.' and '..' are not names") }
        if service.utf8.count > 200 { throw .invalidService(reason: "it is longer than 200 bytes") }
        self.service = service
        self.folder = (root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root) + "/" + service
    }

    /// Creates the vault folder and `slots/`, 0700.
    func ensureFolders() throws(VaultError) {
        try PrivateFiles.ensureFolder(folder)
        try PrivateFiles.ensureFolder(slots)
    }

    /// The vault's recipient (`age1…`, public), or `nil` when there is no vault.
    func readRecipient() throws(VaultError) -> String? {
        try readStampedRecipient()?.recipient
    }

    /// The vault's recipient and the stamp of the file it was read from, or `nil` when there
    /// is no vault.
    func readStampedRecipient() throws(VaultError) -> (recipient: String, stamp: FileStamp)? {
        guard try PrivateFiles.checkFolder(folder), let (data, stamp) = try PrivateFiles.readStamped(recipient, limit: 4096) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .damagedSlot(path: recipient, reason: "it is empty") }
        return (text, stamp)
    }
}
#endif
