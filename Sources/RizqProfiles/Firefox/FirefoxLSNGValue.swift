#if Secrets
import RizqImport

/// How Firefox's LSNG (`storage/default/<origin>/ls/data.sqlite`) stores a value, after
/// Firefox's `dom/localstorage/LSValue.cpp` (database schema 5, `user_version` 80):
///
/// | column | values |
/// | --- | --- |
/// | `compression_type` | `0` as is, `1` raw snappy (Firefox compresses values over 16 bytes when that makes them smaller) |
/// | `conversion_type` | `1` UTF-8 (every string that is valid UTF-16), `0` the string's UTF-16 code units as they were in memory (little-endian on every platform Firefox ships for), kept for strings with a lone surrogate |
/// | `value` | a BLOB, except the empty string, which Firefox binds as TEXT `''` |
///
/// Older databases (schema 4 and before) have a `compressed` column instead
/// and hold UTF-8 only (Firefox's own upgrade says "all legacy data is UTF8").
///
/// Nothing is repaired: invalid UTF-8, a lone surrogate, bytes that are not snappy data, or a
/// type this reader does not know give a ``StoredString`` without text, whose `problem` says
/// why. (Firefox itself would show such a value as the empty string.)
enum FirefoxLSNGValue {
    /// `conversion_type` 0: UTF-16 code units.
    static let utf16Conversion: Int64 = 0
    /// `conversion_type` 1: UTF-8.
    static let utf8Conversion: Int64 = 1
    /// `compression_type` 0: not compressed.
    static let uncompressed: Int64 = 0
    /// `compression_type` 1: raw snappy.
    static let snappyCompression: Int64 = 1

    /// The string that `stored` holds, given its row's `conversion_type` and `compression_type`.
    static func decode(_ stored: [UInt8], conversion: Int64, compression: Int64) -> StoredString {
        let payload: [UInt8]
        switch compression {
        case uncompressed:
            payload = stored
        case snappyCompression:
            do {
                payload = try Snappy.decompress(stored)
            } catch {
                return StoredString(undecodable: stored, problem: "compression_type 1, but the value is not snappy data Firefox can read (\(error))")
            }
        default:
            return StoredString(undecodable: stored, problem: "unknown compression_type \(compression) (Firefox writes 0 and 1)")
        }
        switch conversion {
        case utf8Conversion: return StoredString(utf8: payload)
        case utf16Conversion: return StoredString(utf16LE: payload)
        default: return StoredString(undecodable: payload, problem: "unknown conversion_type \(conversion) (Firefox writes 0 for UTF-16 and 1 for UTF-8)")
        }
    }

    /// How many UTF-16 code units `value` has, as Firefox counts them in `utf16_length`, or
    /// `nil` when that cannot be known (undecodable UTF-8, an unknown type).
    static func utf16Length(_ value: StoredString) -> Int? {
        if let text = value.text { return text.utf16.count }
        if value.encoding == .utf16LE { return value.bytes.count / 2 }
        return nil
    }
}
#endif
