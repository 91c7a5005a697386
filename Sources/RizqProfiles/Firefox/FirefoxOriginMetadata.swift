#if Secrets
/// The origin named by a Firefox origin folder's `.metadata-v2` (written by Firefox's quota
/// manager): a 64-bit timestamp, a persisted flag byte, two reserved 32-bit words, then three
/// strings, each a big-endian 32-bit length and its bytes: the origin-attribute suffix, the
/// group, and the origin (`https://a.com^partitionKey=…`).
///
/// Only read when an `ls/data.sqlite`'s `database` table does not name its origin.
enum FirefoxOriginMetadata {
    /// The origin in `bytes`, or `nil` when they are not a `.metadata-v2` file.
    static func origin(_ bytes: [UInt8]) -> String? {
        var offset = 8 + 1 + 4 + 4
        var strings: [String] = []
        while strings.count < 3 {
            guard offset + 4 <= bytes.count else { return nil }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length <= bytes.count - offset, let text = String(validating: bytes[offset..<offset + length], as: UTF8.self) else { return nil }
            strings.append(text)
            offset += length
        }
        let origin = strings[2]
        return origin.contains("://") ? origin : nil
    }
}
#endif
