/// Where UTF-8 breaks: for error messages that point at the first bad byte, in a JSON string
/// (``JSONReader``) or anywhere in a file (the importer checks a dump before parsing it,
/// so that a binary file is called that rather than "unexpected character").
public enum UTF8Validation {
    /// The offset of the first byte that is not part of valid UTF-8 (overlong forms, encoded
    /// surrogates and values above U+10FFFF count as invalid), or `nil` when all of it is valid.
    @inlinable package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
            case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
            case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
            default: return index
            }
            guard index + length <= count else { return index }
            for offset in 1..<length {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
            index += length
        }
        return nil
    }

    /// ``firstInvalidOffset(in:)`` for an array.
    @inlinable package static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }
}
