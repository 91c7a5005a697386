#if Secrets
extension Array where Element == UInt8 {
    /// Overwrites every byte with zero: what held a secret (a key's text, a passphrase, an
    /// identity file), before it is freed. Copies Swift made on the way are not reached.
    package mutating func zeroize() {
        _ = withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}
#endif
