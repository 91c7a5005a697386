#if Secrets
import Crypto
import Foundation
import RizqAge

/// The seal on the vault's contents: an HMAC-SHA256 only the holder of the vault's identity can
/// make, inside the encrypted payload.
///
/// age encrypts to a public key: anyone who can replace `vault.age` and read `recipient.txt` can
/// encrypt contents of their choosing to it, and the file decrypts fine. The seal is what they
/// cannot make: its key is derived by HKDF-SHA256 from the identity's X25519 secret (salt
/// `rizq-prefs vault seal`, info `contents v2`), and it covers, length-prefixed so that no two
/// contents share an input: the service name, the generation, and every item (account, bytes,
/// text flag, label, and both dates as the file writes them), accounts in the order of their
/// UTF-8 bytes. swift-crypto does all of it; nothing here is cryptography of our own.
enum VaultSeal {
    /// A seal key: derived from one identity, for as long as a read or write needs it.
    struct Key: Sendable {
        let key: SymmetricKey
    }

    private static let salt = Array("rizq-prefs vault seal".utf8)
    private static let info = Array("contents v2".utf8)
    private static let domain = Array("rizq-prefs vault contents v2".utf8) + [0]

    /// The seal key of `identity`.
    static func key(of identity: AgeX25519Identity) -> Key {
        var secret = identity.rawRepresentation
        defer { secret.zeroize() }
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), salt: salt, info: info, outputByteCount: 32)
        return Key(key: derived)
    }

    /// The tag over `items` of `service` at `generation`.
    static func tag(service: String, generation: UInt64, items: [String: VaultContents.WireItem], key: Key) -> HashedAuthenticationCode<SHA256> {
        var mac = HMAC<SHA256>(key: key.key)
        mac.update(data: domain)
        func add(_ bytes: some DataProtocol) {
            add(number: UInt64(bytes.count))
            mac.update(data: bytes)
        }
        func add(number: UInt64) {
            withUnsafeBytes(of: number.bigEndian) { mac.update(data: $0) }
        }
        add(Data(service.utf8))
        add(number: generation)
        add(number: UInt64(items.count))
        for account in items.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let item = items[account] else { continue }
            add(Data(account.utf8))
            add(item.data)
            add(number: item.isText ? 1 : 0)
            add(Data(item.label.utf8))
            add(Data(item.created.utf8))
            add(Data(item.modified.utf8))
        }
        return mac.finalize()
    }
}
#endif
