extension SuiteTable {
    /// A random key for ``hash(_:)``, chosen once per process, so that nobody can prepare keys
    /// that all land in one place of the table.
    static let seed = UInt64.random(in: 0...UInt64.max) | 1

    /// The hash the table files `key` under: equal for keys that `String`'s `==` finds equal
    /// (canonical equivalence), and for ASCII keys, nearly all keys, about three times cheaper
    /// than `Hasher`'s (half of a whole read of a small suite went to `Hasher`).
    ///
    /// ASCII text is its own normal form, so its bytes are hashed directly. A key with other
    /// characters is canonically equivalent to an ASCII key only when each of them is one of the
    /// three that normalize to an ASCII character — U+037E (`;`), U+1FEF (`` ` ``) and U+212A
    /// (`K`) — no other character does, in any Unicode version (the normalization stability
    /// policy): such a key is hashed as that ASCII key, and any other key with `Hasher`, which
    /// hashes its normal form.
    static func hash(_ key: String) -> Int {
        var key = key
        if let hash = key.withUTF8(asciiHash) { return hash }
        var ascii: [UInt8] = []
        ascii.reserveCapacity(key.utf8.count)
        for scalar in key.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: ascii.append(UInt8(truncatingIfNeeded: scalar.value))
            case 0x037E: ascii.append(UInt8(ascii: ";"))
            case 0x1FEF: ascii.append(UInt8(ascii: "`"))
            case 0x212A: ascii.append(UInt8(ascii: "K"))
            default: return key.hashValue
            }
        }
        return ascii.withUnsafeBufferPointer(asciiHash) ?? key.hashValue
    }

    /// ``hash(_:)`` of the key whose UTF-8 is `bytes`, all of them ASCII (the caller checked):
    /// the same hash, without making the key's `String` first.
    @inline(__always)
    static func hash(ascii bytes: UnsafeBufferPointer<UInt8>) -> Int {
        asciiHash(bytes) ?? hash(String(decoding: bytes, as: UTF8.self))
    }

    /// ``hash(_:)`` of the ASCII key of `count` bytes (at most 15) held in `first` (bytes 0–7,
    /// the first in the low bits) and `second` (bytes 8–14), every byte past `count` zero: the
    /// words ``asciiHash(_:)`` reads of those bytes, without reading them again. `seed` is
    /// ``seed``, which a reader of many keys takes once (each read of a global is a call).
    @inline(__always)
    static func hash(asciiWords first: UInt64, _ second: UInt64, count: Int, seed: UInt64) -> Int {
        var hash = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        if count > 0 { hash = mix(hash ^ first) }
        if count > 8 { hash = mix(hash ^ second) }
        return Int(bitPattern: UInt(truncatingIfNeeded: finalize(hash)))
    }

    /// A keyed hash of ASCII bytes, eight at a time; `nil` when a byte is not ASCII.
    private static func asciiHash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var highBits: UInt64 = 0
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            // The first byte in the low bits, as the tail below and ``hash(asciiWords:_:count:)``.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            highBits |= word
            hash = mix(hash ^ word)
            index += 8
        }
        if index < bytes.count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count {
                word |= UInt64(bytes[index]) << shift
                shift += 8
                index += 1
            }
            highBits |= word
            hash = mix(hash ^ word)
        }
        guard highBits & 0x8080_8080_8080_8080 == 0 else { return nil }
        return Int(bitPattern: UInt(truncatingIfNeeded: finalize(hash)))
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xBF58_476D_1CE4_E5B9)
        return product.high ^ product.low
    }

    /// MurmurHash3's finalizer: every bit of the result depends on every bit of `value` (the
    /// table takes the slot and the check bits from the low 31 bits).
    @inline(__always)
    private static func finalize(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return value
    }
}
