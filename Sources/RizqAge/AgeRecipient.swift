#if Secrets
import Crypto

/// Who a file is encrypted to: wraps the file key in one stanza.
package protocol AgeRecipient: Sendable {
    /// The stanza that carries `fileKey` for this recipient.
    func wrap(fileKey: SymmetricKey) throws(AgeError) -> AgeStanza
}

/// What opens a file: unwraps the file key from a stanza addressed to it.
package protocol AgeIdentity: Sendable {
    /// The file key in `stanza`, or `nil` when the stanza is not this identity's (another type, or
    /// it does not open). Throws when the stanza is of this identity's type but unusable.
    func unwrap(_ stanza: AgeStanza) throws(AgeError) -> SymmetricKey?
}

/// The ChaCha20-Poly1305 wrapping of a 16-byte file key under a derived key, with the all-zero
/// nonce both native stanza types use (each wrap key is used once).
enum AgeKeyWrap {
    static func seal(_ fileKey: SymmetricKey, with key: SymmetricKey) throws(AgeError) -> [UInt8] {
        do {
            let box = try ChaChaPoly.seal(fileKey.withUnsafeBytes { Array($0) }, using: key, nonce: try ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 12)))
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .cryptoFailure("wrapping the file key failed")
        }
    }

    /// The file key, or `nil` when `body` does not open under `key`.
    static func open(_ body: [UInt8], with key: SymmetricKey) -> SymmetricKey? {
        guard body.count == 32,
            let nonce = try? ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 12)),
            let box = try? ChaChaPoly.SealedBox(nonce: nonce, ciphertext: body[0..<16], tag: body[16..<32]),
            let fileKey = try? ChaChaPoly.open(box, using: key), fileKey.count == 16
        else { return nil }
        return SymmetricKey(data: fileKey)
    }
}
#endif
