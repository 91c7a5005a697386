#if Secrets
import Crypto
import Foundation
import RizqCore

/// Where one service's vault lives: `<root>/<service>/` holding `vault.age`, `recipient.txt`,
/// `lock` and `slots/`. Only the service name is visible on disk; account names are inside the
/// ciphertext. The chain keeps its marker (`backend.json`, the remembered write target) and a
/// migration's journal there too, and the plain-text backend, when named, its file.
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
    /// The chain's remembered write target (no secret in it).
    var marker: String { folder + "/backend.json" }
    /// An unfinished `secret move`'s journal (its file keeps the first release's name): account names and states, never secrets.
    var migrationJournal: String { folder + "/migration.journal" }
    /// The plain-text backend's file (only when that backend is named explicitly).
    var plaintext: String { folder + "/plaintext.json" }

    /// The layout of `service` under `root`: the one rule for every backend's service names
    /// (RizqCore's `SecretInput`), and the folder name ``folderName(of:)`` gives it.
    init(service: String, root: String) throws(VaultError) {
        if let problem = SecretInput.problem(withService: service) { throw .invalidService(reason: "it " + problem) }
        self.service = service
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.folder = self.root + "/" + Self.folderName(of: service)
    }

    /// The folder name of `service`: the name itself when it is a plain folder name — what
    /// earlier releases made, unchanged — else `%` and the name with `%`, `/`, control
    /// characters and a leading `-` or `.` written `%XX`, so that no name becomes a path, a line
    /// break, a hidden folder or an option (a plain name never starts with `%`, so the two never
    /// meet). A folder name that would pass 255 bytes is `%~` and the SHA-256 of the name, in hex.
    static func folderName(of service: String) -> String {
        let bytes = Array(service.utf8)
        let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
        let plain = !bytes.contains(where: isControl) && !bytes.contains(UInt8(ascii: "/")) && bytes.first != UInt8(ascii: "-")
            && bytes.first != UInt8(ascii: "%") && service != "." && service != ".." && bytes.count <= 200
        if plain { return service }
        var escaped: [UInt8] = [UInt8(ascii: "%")]
        for (index, byte) in bytes.enumerated() {
            let leading = index == 0 && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))
            if isControl(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "/") || leading {
                escaped += Array(("%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            } else {
                escaped.append(byte)
            }
        }
        guard escaped.count <= 255 else {
            return "%~" + SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined()
        }
        return String(decoding: escaped, as: UTF8.self)
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
