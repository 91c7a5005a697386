#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import RizqAge
import RizqCore

/// The key-file slot: the identity in an `age-keygen` file at a path you choose
/// (`RIZQ_SECRETS_KEY_FILE`), readable with `age -d -i KEYFILE vault.age`. On the same file
/// system as the vault it is obfuscation, not protection: it only keeps the secrets from someone
/// who copies the vault folder alone (a synced `~/.local/share`, a partial backup).
struct KeyFileSlot {
    let layout: VaultLayout
    let path: String?

    /// The rule of a key file: this user's (or root's), nobody else may read or write it. A
    /// link is followed (it may live on a removable disk), and the file it names judged: a key
    /// file another user made beforehand is never adopted as this vault's key.
    static let trust = FileTrust.secret("key file").following(true)

    /// Whether the key file shares the vault's file system (then it protects nothing on a stolen disk).
    func isOnVaultFileSystem(_ path: String) -> Bool {
        guard let keyDevice = PrivateFiles.device(of: path), let vaultDevice = PrivateFiles.device(of: layout.folder) else { return true }
        return keyDevice == vaultDevice
    }

    func status() -> VaultKeySourceStatus {
        guard let path else {
            return VaultKeySourceStatus(
                source: .keyFile, isPresent: false, isUsable: false,
                reason: "no key file configured (RIZQ_SECRETS_KEY_FILE)", protection: .keyFile, persistence: .untilDeleted)
        }
        let sameDisk = isOnVaultFileSystem(path)
        let protection: VaultKeyProtection = sameDisk ? .obfuscation : .keyFile
        let where_ = sameDisk ? "on the vault's file system: obfuscation only" : "on another file system than the vault"
        var info = stat()
        guard stat(path, &info) == 0 else {
            return VaultKeySourceStatus(
                source: .keyFile, isPresent: false, isUsable: false,
                reason: "the key file \(path) does not exist (\(PrivateFiles.errnoText(errno)))", protection: protection, persistence: .untilDeleted)
        }
        let readable = access(path, R_OK) == 0
        var reason = readable ? "the key file \(path) is readable, \(where_)" : "the key file \(path) cannot be read (\(PrivateFiles.errnoText(errno)))"
        do {
            try Self.trust.check(info, path: path, operation: .read)
        } catch {
            reason = "the key file \(path) is refused: " + error.reason
            return VaultKeySourceStatus(source: .keyFile, isPresent: true, isUsable: false, reason: reason, protection: protection, persistence: .untilDeleted)
        }
        return VaultKeySourceStatus(source: .keyFile, isPresent: true, isUsable: readable, reason: reason, protection: protection, persistence: .untilDeleted)
    }

    /// The identities in the key file.
    func identities() throws(VaultError) -> [AgeX25519Identity]? {
        guard let path else { return nil }
        guard let data = try PrivateFiles.read(path, limit: AgeIdentityFile.maximumLength, trust: Self.trust) else { return nil }
        do {
            return try AgeIdentityFile.parse(data)
        } catch {
            throw .keySourceFailed(source: .keyFile, detail: "\(path): \(error)")
        }
    }

    /// The identity in the key file that is this vault's (`recipient`).
    func unwrap(recipient: String) throws(VaultError) -> AgeX25519Identity {
        guard let path else { throw .keySourceFailed(source: .keyFile, detail: "no key file configured") }
        guard let identities = try identities() else { throw .keySourceFailed(source: .keyFile, detail: "the key file \(path) does not exist") }
        guard let identity = identities.first(where: { $0.recipient.string == recipient }) else { throw .wrongKey(source: .keyFile) }
        return identity
    }

    /// Makes the key file hold `identity`: written (0600, exclusively) when missing; when it
    /// exists it must already hold it.
    func wrap(_ identity: AgeX25519Identity) throws(VaultError) {
        guard let path else { throw .keySourceFailed(source: .keyFile, detail: "no key file configured (RIZQ_SECRETS_KEY_FILE)") }
        if let identities = try identities() {
            guard identities.contains(where: { $0.recipient == identity.recipient }) else { throw .wrongKey(source: .keyFile) }
            return
        }
        var bytes = AgeIdentityFile.renderBytes([identity])
        defer { bytes.zeroize() }
        try PrivateFiles.createExclusive(path, data: bytes)
    }

    /// Replaces the key file's contents with `identities` (a re-key: the new identity, with the
    /// old one while the vault is re-encrypted), atomically, 0600. A link is replaced where it
    /// points (the key file may live on a removable disk), once the file there is judged as a
    /// read judges it.
    func replace(with identities: [AgeX25519Identity]) throws(VaultError) {
        guard let path else { throw .keySourceFailed(source: .keyFile, detail: "no key file configured (RIZQ_SECRETS_KEY_FILE)") }
        _ = try self.identities()
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var bytes = AgeIdentityFile.renderBytes(identities)
        defer { bytes.zeroize() }
        try PrivateFiles.replace(target, with: bytes)
    }
}
#endif
