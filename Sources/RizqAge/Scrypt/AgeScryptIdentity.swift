#if Secrets
import Crypto
import CryptoExtras

/// A passphrase as an identity: opens the scrypt stanza of a passphrase-encrypted file.
package struct AgeScryptIdentity: AgeIdentity {
    static let stanzaType = "scrypt"
    static let saltLabel = Array("age-encryption.org/v1/scrypt".utf8)
    /// The default limit on a file's work factor: 2^20 takes 1 GiB of memory (128 · r · N bytes)
    /// and seconds of CPU, so a hostile file cannot make a reader take more than that; age's
    /// own `-p` writes 18.
    package static let defaultMaximumWorkFactor = 20

    /// The passphrase bytes. A secret.
    let passphrase: [UInt8]
    /// The largest log2 N accepted from a file.
    package let maximumWorkFactor: Int

    /// An identity for `passphrase` that refuses files asking for more than 2^`maximumWorkFactor`.
    package init(passphrase: some Collection<UInt8>, maximumWorkFactor: Int = defaultMaximumWorkFactor) {
        self.passphrase = Array(passphrase)
        self.maximumWorkFactor = min(max(maximumWorkFactor, 1), 30)
    }

    /// The work factor argument: decimal digits with no leading zero (`^[1-9][0-9]*$`), at
    /// most 30 (beyond that no reader could allocate scrypt's memory).
    static func parseWorkFactor(_ text: String) throws(AgeError) -> Int {
        let digits = Array(text.utf8)
        guard let first = digits.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            throw .malformedHeader("an scrypt stanza's work factor is not a decimal number without leading zeros")
        }
        // Two digits cover every valid value; a longer number could overflow Int.
        guard digits.count <= 2, let value = Int(text) else {
            throw .malformedHeader("an scrypt stanza's work factor is out of range")
        }
        guard value <= 30 else { throw .workFactorTooLarge(logN: value, limit: 30) }
        return value
    }

    static func deriveKey(passphrase: [UInt8], salt: [UInt8], workFactor: Int) throws(AgeError) -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(
                from: passphrase, salt: saltLabel + salt, outputByteCount: 32,
                rounds: 1 << workFactor, blockSize: 8, parallelism: 1)
        } catch {
            throw .cryptoFailure("scrypt at work factor 2^\(workFactor) failed (out of memory?)")
        }
    }

    /// The file key of an scrypt stanza; `nil` for other stanzas and for a passphrase that does
    /// not open it (the caller reports ``AgeError/wrongPassphrase``).
    package func unwrap(_ stanza: AgeStanza) throws(AgeError) -> SymmetricKey? {
        guard stanza.type == Self.stanzaType else { return nil }
        try stanza.validateKnownType()
        let workFactor = try Self.parseWorkFactor(stanza.arguments[1])
        guard workFactor <= maximumWorkFactor else { throw .workFactorTooLarge(logN: workFactor, limit: maximumWorkFactor) }
        guard let salt = AgeBase64.decode(Array(stanza.arguments[0].utf8)) else {
            throw .malformedHeader("an scrypt stanza's salt is not canonical base64")
        }
        let key = try Self.deriveKey(passphrase: passphrase, salt: salt, workFactor: workFactor)
        return AgeKeyWrap.open(stanza.body, with: key)
    }
}
#endif
