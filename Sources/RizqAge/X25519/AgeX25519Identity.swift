#if Secrets
import Crypto
import Foundation

/// An X25519 identity, `AGE-SECRET-KEY-1…`, as `age-keygen` makes them.
///
/// Its ``description`` never shows the key: print ``recipient`` instead.
package struct AgeX25519Identity: AgeIdentity, CustomStringConvertible {
    static let stanzaType = "X25519"
    static let hrp = "age-secret-key-"
    static let info = Array("age-encryption.org/v1/X25519".utf8)

    /// The 32-byte Curve25519 private key.
    package let privateKey: Curve25519.KeyAgreement.PrivateKey

    /// A new random identity.
    package init() {
        privateKey = Curve25519.KeyAgreement.PrivateKey()
    }

    /// The identity of a 32-byte private key.
    package init(rawRepresentation: some ContiguousBytes) throws(AgeError) {
        do {
            privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw .invalidIdentity("it is not a 32-byte X25519 key")
        }
    }

    /// Parses `AGE-SECRET-KEY-1…`.
    package init(parsing text: String) throws(AgeError) {
        var bytes = Array(text.utf8)
        defer { bytes.zeroize() }
        try self.init(parsing: bytes)
    }

    /// Parses `AGE-SECRET-KEY-1…` given as ASCII bytes (the key never becomes a `String`; the
    /// caller zeroes `bytes`, and the decoded key bytes are zeroed here).
    package init(parsing bytes: [UInt8]) throws(AgeError) {
        var decoded: (hrp: String, data: [UInt8])
        do {
            decoded = try Bech32.decode(bytes: bytes)
        } catch {
            throw .invalidIdentity("not valid Bech32: \(error)")
        }
        defer { decoded.data.zeroize() }
        guard decoded.hrp == Self.hrp else { throw .invalidIdentity("it does not start with AGE-SECRET-KEY-1") }
        guard decoded.data.count == 32 else { throw .invalidIdentity("it does not hold a 32-byte key") }
        try self.init(rawRepresentation: decoded.data)
    }

    /// `AGE-SECRET-KEY-1…` (upper case, as age writes it). A secret: never log it. Prefer
    /// ``encodedBytes``, which the caller can zero.
    package var string: String {
        var bytes = encodedBytes
        defer { bytes.zeroize() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `AGE-SECRET-KEY-1…` as ASCII bytes; the caller zeroes them after use.
    package var encodedBytes: [UInt8] {
        var raw = rawRepresentation
        defer { raw.zeroize() }
        return Bech32.encodedBytes(hrp: Self.hrp, data: raw, upperCase: true)
    }

    /// The 32 raw key bytes. A secret.
    package var rawRepresentation: [UInt8] {
        privateKey.rawRepresentation.withUnsafeBytes { Array($0) }
    }

    /// The matching recipient.
    package var recipient: AgeX25519Recipient {
        AgeX25519Recipient(publicKey: privateKey.publicKey)
    }

    /// The recipient, never the key.
    package var description: String { "AgeX25519Identity(\(recipient.string))" }

    static func wrapKey(shared: SharedSecret, share: [UInt8], recipient: [UInt8]) -> SymmetricKey {
        shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: share + recipient, sharedInfo: info, outputByteCount: 32)
    }

    /// The file key of an X25519 stanza addressed to this identity; `nil` for other stanzas.
    package func unwrap(_ stanza: AgeStanza) throws(AgeError) -> SymmetricKey? {
        guard stanza.type == Self.stanzaType else { return nil }
        try stanza.validateKnownType()
        guard let share = AgeBase64.decode(Array(stanza.arguments[0].utf8)),
            let sharePoint = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: share)
        else {
            throw .malformedHeader("an X25519 stanza's share is not a 32-byte key")
        }
        // A low-order share makes the shared secret all zeros; the spec says abort, not skip.
        guard let shared = try? privateKey.sharedSecretFromKeyAgreement(with: sharePoint),
            shared.withUnsafeBytes({ bytes in bytes.contains { $0 != 0 } })
        else {
            throw .malformedHeader("an X25519 stanza's share is a low-order point (all-zero shared secret)")
        }
        let key = Self.wrapKey(shared: shared, share: share, recipient: Array(privateKey.publicKey.rawRepresentation))
        return AgeKeyWrap.open(stanza.body, with: key)
    }
}
#endif
