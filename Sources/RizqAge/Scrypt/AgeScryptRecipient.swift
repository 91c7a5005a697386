#if Secrets
import Crypto
import CryptoExtras

/// A passphrase as a recipient: the scrypt stanza (`-> scrypt SALT LOGN`), what `age -p` writes.
/// A file encrypted to it must have no other recipient.
package struct AgeScryptRecipient: AgeRecipient {
    /// The passphrase bytes. A secret.
    let passphrase: [UInt8]
    /// log2 of scrypt's N, recorded in the stanza so that the reader needs no configuration.
    package let workFactor: Int

    /// A recipient for `passphrase` at work factor 2^`workFactor` (age's own default is 18).
    package init(passphrase: some Collection<UInt8>, workFactor: Int) throws(AgeError) {
        guard (1...30).contains(workFactor) else { throw .invalidWorkFactor(workFactor) }
        self.passphrase = Array(passphrase)
        self.workFactor = workFactor
    }

    /// The scrypt stanza: a fresh salt, and the file key sealed under
    /// scrypt(N = 2^workFactor, r = 8, p = 1, salt: "age-encryption.org/v1/scrypt" ‖ salt).
    package func wrap(fileKey: SymmetricKey) throws(AgeError) -> AgeStanza {
        let salt = AgeRandom.bytes(16)
        let key = try AgeScryptIdentity.deriveKey(passphrase: passphrase, salt: salt, workFactor: workFactor)
        let body = try AgeKeyWrap.seal(fileKey, with: key)
        return AgeStanza(type: AgeScryptIdentity.stanzaType, arguments: [AgeBase64.encode(salt), String(workFactor)], body: body)
    }
}
#endif
