#if Secrets
import Crypto

/// The digest that identifies an imported input (`sha256:` and 64 lowercase hexadecimal
/// digits in a record), computed by swift-crypto.
enum InputDigest {
    /// The SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
#endif
