/// Makes the `String` of up to 15 ASCII bytes straight from the two words that hold them, as
/// Swift stores such a string in place (a "small" string: the bytes, then their count and
/// flags in the last byte), without the copy and the UTF-8 check of `String`'s initializers: the
/// reader has already checked the bytes, and making keys' strings through an initializer was a
/// quarter of the instructions of opening a large suite (callgrind).
///
/// It writes only bit patterns the standard library itself makes: ``maker`` is made only once the
/// pattern for every length compared equal with a string the library made from the same bytes,
/// once per process; where any differs (another layout, another platform) there is no maker and
/// the reader makes its strings the ordinary way. A reader takes the maker once, not once a key.
public struct ShortASCIIString: Sendable {
    /// The longest string made here: a small string holds 15 bytes.
    @usableFromInline package static let maximumCount = 15

    /// This process's maker; `nil` when its `String` does not store short ASCII strings as
    /// ``pattern(_:_:count:)`` says, checked against the standard library for every length
    /// from 0 to 15.
    @usableFromInline package static let maker: ShortASCIIString? = {
        guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return nil }
        let sample = Array("abcdefghijklmno".utf8)
        for count in 0...maximumCount {
            let made = String(decoding: sample[..<count], as: UTF8.self)
            var words: (UInt64, UInt64) = (0, 0)
            for (offset, byte) in sample[..<count].enumerated() {
                if offset < 8 {
                    words.0 |= UInt64(byte) << UInt64(8 * offset)
                } else {
                    words.1 |= UInt64(byte) << UInt64(8 * (offset - 8))
                }
            }
            guard unsafeBitCast(made, to: (UInt64, UInt64).self) == pattern(words.0, words.1, count: count) else { return nil }
        }
        return ShortASCIIString()
    }()

    @inlinable package init() {}

    /// The string of the `count` ASCII bytes in `first` (bytes 0–7, the first in the low bits)
    /// and `second` (bytes 8–14), with every byte past `count` zero; `nil` when `count` is over 15.
    @inline(__always)
    @inlinable package func make(_ first: UInt64, _ second: UInt64, count: Int) -> String? {
        guard count <= Self.maximumCount else { return nil }
        return unsafeBitCast(Self.pattern(first, second, count: count), to: String.self)
    }

    /// A small ASCII string's two words on a 64-bit little-endian platform: the bytes, and in the
    /// top byte the flags "immortal, small, ASCII" (0xE0) with the count.
    @inlinable package static func pattern(_ first: UInt64, _ second: UInt64, count: Int) -> (UInt64, UInt64) {
        (UInt64(littleEndian: first), UInt64(littleEndian: second) | (0xE0 | UInt64(count)) << 56)
    }
}
