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
        let accounts = items.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var inputs = accounts.compactMap { account in items[account].map { input(account: account, item: $0) } }
        defer { for index in inputs.indices { inputs[index].zeroize() } }
        return tag(service: service, generation: generation, count: inputs.count, inputs: inputs, key: key)
    }

    /// One item's part of the seal's input, length-prefixed: its account, bytes, text flag,
    /// label and both dates as the file writes them. A write keeps it with the item's encoding,
    /// so that a set feeds the others' parts to the MAC as they are.
    static func input(account: String, item: VaultContents.WireItem) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(item.data.count + account.utf8.count + item.label.utf8.count + item.created.utf8.count + item.modified.utf8.count + 48)
        func add(number: UInt64) {
            withUnsafeBytes(of: number.bigEndian) { bytes.append(contentsOf: $0) }
        }
        func add(_ part: UnsafeRawBufferPointer) {
            add(number: UInt64(part.count))
            bytes.append(contentsOf: part)
        }
        func add(_ text: String) {
            var text = text
            text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        }
        add(account)
        item.data.withUnsafeBytes { add($0) }
        add(number: item.isText ? 1 : 0)
        add(item.label)
        add(item.created)
        add(item.modified)
        // The lifetime, named, only when the item has one: an item without keeps its seal.
        if let expires = item.expires {
            add("expires")
            add(expires)
        }
        if let refreshToken = item.refreshToken {
            add("refreshToken")
            add(refreshToken)
        }
        return bytes
    }

    /// The tag over the `count` items whose ``input(account:item:)`` parts are `inputs` (every
    /// item, accounts in the order of their UTF-8 bytes), of `service` at `generation`.
    static func tag(service: String, generation: UInt64, count: Int, inputs: some Sequence<[UInt8]>, key: Key) -> HashedAuthenticationCode<SHA256> {
        var mac = HMAC<SHA256>(key: key.key)
        mac.update(data: domain)
        // The parts go to the MAC in blocks of 64 KiB: one call per part cost more than the
        // hashing (each generic call looks up its metadata). Zeroed after: it holds the secrets.
        let blockSize = 64 << 10
        var block: [UInt8] = []
        block.reserveCapacity(blockSize + 4096)
        defer { block.zeroize() }
        func flush() {
            mac.update(data: block)
            block.zeroize()
            block.removeAll(keepingCapacity: true)
        }
        func add(number: UInt64) {
            withUnsafeBytes(of: number.bigEndian) { block.append(contentsOf: $0) }
        }
        var service = service
        service.withUTF8 { text in
            add(number: UInt64(text.count))
            block.append(contentsOf: text)
        }
        add(number: generation)
        add(number: UInt64(count))
        for input in inputs {
            if input.count >= blockSize {
                // A large secret goes to the MAC as it is, not copied.
                flush()
                mac.update(data: input)
                continue
            }
            block.append(contentsOf: input)
            if block.count >= blockSize { flush() }
        }
        mac.update(data: block)
        return mac.finalize()
    }
}
#endif
