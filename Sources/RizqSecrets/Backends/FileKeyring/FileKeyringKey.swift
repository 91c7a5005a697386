#if Secrets
import Crypto
import CryptoExtras
import Foundation

/// The one key of a file keyring, and everything done with it, over swift-crypto:
///
/// - **derived** with PBKDF2-HMAC-SHA256 from the master password (``FileKeyringPassword``)
///   and the file's salt and iteration count, 16 bytes: AES-**128** (libsecret 0.20 names it
///   AES-256, but asks for 16 bytes);
/// - **attribute values** hashed with HMAC-SHA256 under it;
/// - **items** sealed as `AES-128-CBC(PKCS#7(plaintext)) ‖ IV(16) ‖ HMAC-SHA256(ciphertext ‖ IV)`,
///   and opened by checking the MAC (in constant time) before anything is decrypted.
///
/// The same key does all three, as libsecret does. swift-crypto's `SymmetricKey` keeps its bytes
/// in memory it zeroes when released.
struct FileKeyringKey: Sendable {
    /// Why a key could not be derived, or a blob sealed or opened.
    enum Failure: Error, Equatable {
        /// Not ciphertext blocks, an IV and a MAC.
        case blobLength(Int)
        /// The MAC does not match: another key sealed it, or it was changed.
        case macMismatch
        /// The MAC matched, but the padding did not (sealed by a broken writer).
        case padding
        /// swift-crypto refused to encrypt (it refuses only a wrong key or IV size).
        case sealing
        /// PBKDF2 refused the parameters: an empty salt or password, or an iteration count
        /// outside 1...``FileKeyringFile/maximumIterations``.
        case derivation
    }

    /// The key's bytes, for AES, the item MACs and the attribute MACs.
    let key: SymmetricKey

    /// The length of the derived key: 16 bytes, AES-128.
    static let size = 16
    /// The IV's length, stored after the ciphertext.
    static let ivSize = 16
    /// The MAC's length, stored last.
    static let macSize = 32

    /// Derives the key from `password` and the keyring's `salt` and `iterations` (about 30 ms
    /// for libsecret's 100 000: done once per keyring and password, and kept).
    /// - Throws: ``Failure/derivation`` for an empty password or salt, or an iteration count
    ///   outside what a keyring may ask (``FileKeyringFile/decode(_:)`` refuses such files first).
    init(password: UnsafeRawBufferPointer, salt: [UInt8], iterations: UInt32) throws(Failure) {
        // swift-crypto's PBKDF2 over BoringSSL reads the first byte of both buffers.
        guard !password.isEmpty, !salt.isEmpty, iterations >= 1, iterations <= FileKeyringFile.maximumIterations else { throw .derivation }
        do {
            key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha256, outputByteCount: Self.size, unsafeUncheckedRounds: Int(iterations))
        } catch {
            throw .derivation
        }
    }

    /// A key from its bytes (tests, and the vectors' known keys).
    init(bytes: [UInt8]) {
        key = SymmetricKey(data: bytes)
    }

    /// `HMAC-SHA256(key, value's UTF-8)`: an attribute value as the file stores it.
    func hash(_ value: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(value.utf8), using: key))
    }

    /// Whether `mac` is the MAC of `value`, compared in constant time.
    func matches(_ mac: [UInt8], value: [UInt8]) -> Bool {
        mac.count == Self.macSize && HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: value, using: key)
    }

    /// Seals `plaintext` with a fresh random IV, or with `iv` (the tests' fixed vectors).
    func seal(_ plaintext: [UInt8], iv fixedIV: [UInt8]? = nil) throws(Failure) -> [UInt8] {
        let ivBytes = fixedIV ?? Self.randomIV()
        guard let iv = try? AES._CBC.IV(ivBytes: ivBytes), let ciphertext = try? AES._CBC.encrypt(plaintext, using: key, iv: iv) else {
            throw .sealing
        }
        var blob = Array(ciphertext)
        blob.append(contentsOf: ivBytes)
        blob.append(contentsOf: HMAC<SHA256>.authenticationCode(for: blob, using: key))
        return blob
    }

    /// Whether `blob` was sealed with this key (its MAC matches): the check behind "wrong
    /// password" that libsecret itself never makes.
    func verifies(_ blob: [UInt8]) -> Bool {
        guard Self.hasBlobLength(blob.count) else { return false }
        let macStart = blob.count - Self.macSize
        return HMAC<SHA256>.isValidAuthenticationCode(blob[macStart...], authenticating: blob[..<macStart], using: key)
    }

    /// The plaintext of `blob`: its MAC checked first, then decrypted and unpadded.
    func open(_ blob: [UInt8]) throws(Failure) -> [UInt8] {
        guard Self.hasBlobLength(blob.count) else { throw .blobLength(blob.count) }
        guard verifies(blob) else { throw .macMismatch }
        let ivStart = blob.count - Self.macSize - Self.ivSize
        guard let iv = try? AES._CBC.IV(ivBytes: blob[ivStart..<ivStart + Self.ivSize]),
              let plaintext = try? AES._CBC.decrypt(blob[..<ivStart], using: key, iv: iv)
        else { throw .padding }
        return Array(plaintext)
    }

    /// At least one AES block of ciphertext, a whole number of them, then the IV and the MAC.
    static func hasBlobLength(_ count: Int) -> Bool {
        count >= 16 + ivSize + macSize && count % 16 == 0
    }

    private static func randomIV() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<ivSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
#endif
