#if Secrets
import Crypto
import Foundation

/// An X25519 recipient, `age1…`: the public half of an ``AgeX25519Identity``.
package struct AgeX25519Recipient: AgeRecipient, Equatable {
    static let hrp = "age"
    /// The 32-byte Curve25519 public key.
    package let publicKey: Curve25519.KeyAgreement.PublicKey

    /// The recipient of `publicKey`.
    package init(publicKey: Curve25519.KeyAgreement.PublicKey) {
        self.publicKey = publicKey
    }

    /// Parses `age1…` (as `age-keygen -y` prints it).
    package init(parsing text: String) throws(AgeError) {
        let decoded: (hrp: String, data: [UInt8])
        do {
            decoded = try Bech32.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw .invalidRecipient("not valid Bech32: \(error)")
        }
        guard decoded.hrp == Self.hrp else { throw .invalidRecipient("it does not start with age1") }
        guard decoded.data.count == 32, let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: decoded.data) else {
            throw .invalidRecipient("it does not hold a 32-byte X25519 key")
        }
        self.init(publicKey: key)
    }

    /// `age1…`.
    package var string: String {
        Bech32.encode(hrp: Self.hrp, data: Array(publicKey.rawRepresentation))
    }

    /// Two recipients are equal when their public keys are.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.publicKey.rawRepresentation == rhs.publicKey.rawRepresentation
    }

    /// An X25519 stanza: a fresh ephemeral share, and the file key sealed under
    /// HKDF(ECDH, salt: share ‖ recipient, info: "age-encryption.org/v1/X25519").
    package func wrap(fileKey: SymmetricKey) throws(AgeError) -> AgeStanza {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let share = Array(ephemeral.publicKey.rawRepresentation)
        let shared: SharedSecret
        do {
            shared = try ephemeral.sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            throw .invalidRecipient("the key is a low-order point")
        }
        let key = AgeX25519Identity.wrapKey(shared: shared, share: share, recipient: Array(publicKey.rawRepresentation))
        let body = try AgeKeyWrap.seal(fileKey, with: key)
        return AgeStanza(type: AgeX25519Identity.stanzaType, arguments: [AgeBase64.encode(share)], body: body)
    }
}
#endif
