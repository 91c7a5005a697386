#if Secrets
import Crypto

/// Fresh random bytes for file keys, nonces and salts, from swift-crypto's CSPRNG (the one
/// behind `SymmetricKey(size:)`), as the spec requires.
enum AgeRandom {
    static func bytes(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    static func fileKey() -> SymmetricKey {
        SymmetricKey(size: SymmetricKeySize(bitCount: 128))
    }
}
#endif
