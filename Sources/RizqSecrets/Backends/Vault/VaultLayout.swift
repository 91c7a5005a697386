#if Secrets
import Foundation
import RizqCore

/// Where one service's vault lives: its ``ServiceFolder`` (`<root>/<service>/`) holding
/// `vault.age`, `recipient.txt`, `lock` and `slots/`. Only the service name is visible on disk;
/// account names are inside the ciphertext. The plain-text backend, when named, keeps its file in
/// the same folder, under the same lock; the chain keeps its own state there too, found through
/// the folder, not through this layout.
struct VaultLayout: Sendable {
    let service: String
    let folder: String
    /// The secrets root the service folder is in (`RIZQ_SECRETS_DIR`, …).
    let root: String

    var vault: String { folder + "/vault.age" }
    var recipient: String { folder + "/recipient.txt" }
    var lock: String { folder + "/lock" }
    var slots: String { folder + "/slots" }
    var passphraseSlot: String { slots + "/passphrase.age" }
    var systemdSlot: String { slots + "/systemd.cred" }
    /// The plain-text backend's file (only when that backend is named explicitly).
    var plaintext: String { folder + "/plaintext.json" }

    /// The layout of `service` under `root`: its ``ServiceFolder``.
    init(service: String, root: String) throws(VaultError) {
        guard let serviceFolder = ServiceFolder(service: service, root: root) else {
            throw .invalidService(reason: ServiceFolder.problem(with: service) ?? "it cannot name a folder")
        }
        self.service = service
        self.root = serviceFolder.root
        self.folder = serviceFolder.path
    }

    /// The rule of the secrets root: the vault folder's, but a link is followed (a root given as
    /// a link to elsewhere) and its target judged. Nobody else may write it, sticky bit or not:
    /// whoever can write it can swap the service folder for one of theirs.
    static let rootTrust = PrivateFiles.vaultFolder.following(true)

    /// Creates the vault folder and `slots/`, 0700, under a root judged first.
    func ensureFolders() throws(VaultError) {
        try PrivateFiles.ensureFolder(root, trust: Self.rootTrust, tightening: false)
        try PrivateFiles.ensureFolder(folder)
        try PrivateFiles.ensureFolder(slots)
    }

    /// Judges the secrets root, then the service folder; `false` when the service folder does
    /// not exist.
    @discardableResult
    func checkFolder() throws(VaultError) -> Bool {
        guard try PrivateFiles.checkFolder(root, trust: Self.rootTrust, tightening: false) else { return false }
        return try PrivateFiles.checkFolder(folder)
    }

    /// The vault's recipient (`age1…`, public), or `nil` when there is no vault.
    func readRecipient() throws(VaultError) -> String? {
        try readStampedRecipient()?.recipient
    }

    /// The vault's recipient and the stamp of the file it was read from, or `nil` when there
    /// is no vault.
    func readStampedRecipient() throws(VaultError) -> (recipient: String, stamp: FileStamp)? {
        guard try checkFolder(), let (data, stamp) = try PrivateFiles.readStamped(recipient, limit: 4096) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .damagedSlot(path: recipient, reason: "it is empty") }
        return (text, stamp)
    }
}
#endif
