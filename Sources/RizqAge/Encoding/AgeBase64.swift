#if Secrets
/// The base64 of age headers: RFC 4648 §4 without `=` padding, canonical only.
///
/// Foundation's decoder wants padding and ignores non-zero trailing bits; age forbids both
/// (C2SP age: decoders MUST reject non-canonical encodings), or a header could be changed without
/// changing its meaning, so this one is strict.
package enum AgeBase64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()

    /// The unpadded base64 of `bytes`.
    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
            accumulator &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of canonical unpadded base64 `text`, or `nil` for anything else (padding, a
    /// character outside the alphabet, a length that no byte string has, non-zero spare bits).
    package static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        if text.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value = values[Int(character)]
            if value < 0 { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The spare bits of the last character must be zero, or two texts would mean one value.
        if accumulator != 0 { return nil }
        return output
    }
}
#endif
