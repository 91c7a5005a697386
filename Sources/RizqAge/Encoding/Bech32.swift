#if Secrets
/// Bech32 (BIP 173) as age uses it: for recipients (`age1…`) and identities
/// (`AGE-SECRET-KEY-1…`), with no limit on the data part's length.
package enum Bech32 {
    /// Why a string is not valid Bech32. Never quotes the string: it may be a secret key.
    package enum Failure: Error, Sendable, Equatable {
        case mixedCase
        case invalidCharacter
        case noSeparator
        case badChecksum
        case badPadding
    }

    private static let charset: [UInt8] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let charsetValues: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, character) in charset.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()
    private static let generator: [UInt32] = [0x3B6A_57B2, 0x2650_8E6D, 0x1EA1_19FA, 0x3D42_33DD, 0x2A14_62B3]

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        var checksum: UInt32 = 1
        for value in values {
            let top = checksum >> 25
            checksum = ((checksum & 0x1FF_FFFF) << 5) ^ UInt32(value)
            for index in 0..<5 where (top >> UInt32(index)) & 1 == 1 {
                checksum ^= generator[index]
            }
        }
        return checksum
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    /// Regroups bits: 8 → 5 with padding when encoding, 5 → 8 without when decoding.
    private static func convert(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator: UInt32 = 0
        var bits = 0
        var output: [UInt8] = []
        let mask: UInt32 = (1 << UInt32(to)) - 1
        for value in data {
            accumulator = (accumulator << UInt32(from)) | UInt32(value)
            bits += from
            while bits >= to {
                bits -= to
                output.append(UInt8((accumulator >> UInt32(bits)) & mask))
            }
            accumulator &= (1 << UInt32(bits)) - 1
        }
        if pad {
            if bits > 0 { output.append(UInt8((accumulator << UInt32(to - bits)) & mask)) }
        } else if bits >= from || accumulator != 0 {
            return nil
        }
        return output
    }

    /// The lower-case Bech32 string of `data` under `hrp` (given in lower case).
    package static func encode(hrp: String, data: [UInt8]) -> String {
        var output = encodedBytes(hrp: hrp, data: data)
        defer { output.zeroize() }
        return String(decoding: output, as: UTF8.self)
    }

    /// ``encode(hrp:data:)`` as ASCII bytes, for a secret key that should never sit in a
    /// `String` (the caller zeroes them). `upperCase`: as age writes identities.
    package static func encodedBytes(hrp: String, data: [UInt8], upperCase: Bool = false) -> [UInt8] {
        let hrpBytes = Array(hrp.lowercased().utf8)
        var values = convert(data, from: 8, to: 5, pad: true) ?? []
        defer { values.zeroize() }
        let checksumInput = expand(hrpBytes) + values + [0, 0, 0, 0, 0, 0]
        let checksum = polymod(checksumInput) ^ 1
        var output = hrpBytes
        output.reserveCapacity(hrpBytes.count + 1 + values.count + 6)
        output.append(UInt8(ascii: "1"))
        for value in values { output.append(charset[Int(value)]) }
        for index in 0..<6 { output.append(charset[Int((checksum >> UInt32(5 * (5 - index))) & 31)]) }
        if upperCase {
            for index in output.indices where output[index] >= UInt8(ascii: "a") && output[index] <= UInt8(ascii: "z") { output[index] -= 32 }
        }
        return output
    }

    /// The human-readable part (in lower case) and the data of a Bech32 string.
    package static func decode(_ string: String) throws(Failure) -> (hrp: String, data: [UInt8]) {
        try decode(bytes: Array(string.utf8))
    }

    /// ``decode(_:)`` of ASCII bytes (a secret key read from a file, never made a `String`).
    package static func decode(bytes: [UInt8]) throws(Failure) -> (hrp: String, data: [UInt8]) {
        var hasLower = false
        var hasUpper = false
        for byte in bytes {
            guard byte >= 33, byte <= 126 else { throw .invalidCharacter }
            if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { hasLower = true }
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { hasUpper = true }
        }
        if hasLower, hasUpper { throw .mixedCase }
        var lower = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        var values: [UInt8] = []
        // The 5-bit groups of a secret key are the key: zeroed before they are freed.
        defer {
            lower.zeroize()
            values.zeroize()
        }
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator >= 1, lower.count - separator - 1 >= 6 else {
            throw .noSeparator
        }
        let hrp = Array(lower[..<separator])
        values.reserveCapacity(lower.count - separator - 1)
        for byte in lower[(separator + 1)...] {
            guard byte < 128, charsetValues[Int(byte)] >= 0 else { throw .invalidCharacter }
            values.append(UInt8(charsetValues[Int(byte)]))
        }
        guard polymod(expand(hrp) + values) == 1 else { throw .badChecksum }
        guard let data = convert(Array(values.dropLast(6)), from: 5, to: 8, pad: false) else { throw .badPadding }
        return (String(decoding: hrp, as: UTF8.self), data)
    }
}

extension Bech32.Failure: CustomStringConvertible {
    /// What is wrong, without the string.
    package var description: String {
        switch self {
        case .mixedCase: return "it mixes upper and lower case"
        case .invalidCharacter: return "it has a character Bech32 does not use"
        case .noSeparator: return "it has no '1' separator followed by a checksum"
        case .badChecksum: return "its checksum does not match (a typo, or a truncated copy)"
        case .badPadding: return "its last character has non-zero padding bits"
        }
    }
}
#endif
