#if Secrets
import RizqImport

/// How Chromium stores a `localStorage` key or value in LevelDB: a format byte, then the
/// string's code units.
///
/// | first byte | then |
/// | --- | --- |
/// | `0x00` | UTF-16LE code units (any string) |
/// | `0x01` | one byte per code point, U+0000–U+00FF (strings that fit; ISO-8859-1, not Windows-1252) |
///
/// The empty string is the single byte `0x01`; no bytes at all also read as the empty string,
/// as Blink reads them. Any other first byte is a format this reader does not know: the bytes
/// are kept and reported, never guessed at.
enum ChromiumStorageString {
    static let utf16Format: UInt8 = 0x00
    static let latin1Format: UInt8 = 0x01

    static func decode(_ bytes: UnsafeRawBufferPointer) -> StoredString {
        guard let format = bytes.first else { return StoredString(latin1: []) }
        let payload = Array(bytes.dropFirst())
        switch format {
        case latin1Format: return StoredString(latin1: payload)
        case utf16Format: return StoredString(utf16LE: payload)
        default:
            let hex = String(format, radix: 16, uppercase: true)
            return StoredString(
                undecodable: Array(bytes),
                problem: "unknown format byte 0x\(hex.count == 1 ? "0" + hex : hex) (Chromium writes 0x00 for UTF-16 and 0x01 for Latin-1)")
        }
    }

    /// The bytes Chromium writes for `text` (for tests and tools).
    static func encode(_ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        if units.allSatisfy({ $0 <= 0xFF }) {
            return [latin1Format] + units.map { UInt8($0) }
        }
        var bytes: [UInt8] = [utf16Format]
        for unit in units { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return bytes
    }
}
#endif
