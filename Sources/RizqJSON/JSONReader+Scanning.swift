/// The lexical half of ``JSONReader``: strings with their escapes and surrogate pairs, numbers,
/// the three words, white space, and failures at the current position. Whatever the reader
/// builds, it scans with these.
extension JSONReader {
    /// Reads the string whose opening quote is at `index`, and moves past its closing quote.
    @inlinable package mutating func scanString() throws(Failure) -> String {
        try scanStringKeepingASCII().text
    }

    /// Reads a string like ``scanString()``; `ascii` is its bytes in the text when they are all
    /// ASCII and hold no escape (nearly every key of a suite file), so that a caller can hash
    /// the key from them without going through the `String`.
    @inlinable package mutating func scanStringKeepingASCII() throws(Failure) -> (text: String, ascii: UnsafeBufferPointer<UInt8>?) {
        let opening = index
        let start = index + 1
        // Fast path: no escapes. Validation of UTF-8 happens once, on the whole run, and only
        // if a byte of it is not ASCII. A local position, stored back once: the loop then keeps
        // it in a register rather than in `self` (a fifth of opening a large suite was this loop).
        var position = start
        let count = bytes.count
        var allBits: UInt64 = 0
        if let base = bytes.baseAddress {
            // Eight bytes at a time up to the first that needs a look (a quote, a backslash, a
            // control character): the byte loop below takes it from there.
            while position + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let stops = Self.stopBytes(in: word)
                if stops != 0 {
                    let before = stops.trailingZeroBitCount / 8
                    allBits |= word & ((1 << UInt64(before * 8)) &- 1)
                    position += before
                    break
                }
                allBits |= word
                position += 8
            }
        }
        while position < count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
                index = position + 1
                if allBits & 0x8080_8080_8080_8080 == 0 { return (Self.asciiString(run), run) }
                return (try makeString(run, at: start), nil)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                index = position
                throw fail(.controlCharacter(byte))
            }
            allBits |= UInt64(byte)
            position += 1
        }
        index = position
        return (try scanEscapedString(opening: opening), nil)
    }

    /// The high bit of each byte of `word` (the first byte in the low bits) that ends a
    /// string's plain run: a quote, a backslash or a control character. The first flagged byte
    /// is always one of them; a flagged byte after it may not be (a borrow of the subtraction
    /// carries into the next byte), so only the first counts.
    @inline(__always)
    @inlinable package static func stopBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let zeroIsQuote = (quotes &- ones) & ~quotes
        let zeroIsBackslash = (backslashes &- ones) & ~backslashes
        let belowSpace = (word &- ones &* 0x20) & ~word
        return (zeroIsQuote | zeroIsBackslash | belowSpace) & (ones &* 0x80)
    }

    /// The rest of ``scanString()`` from the first escape, at `index`, of the string whose
    /// opening quote is at `opening`.
    @inlinable package mutating func scanEscapedString(opening: Int) throws(Failure) -> String {
        let start = opening + 1
        guard index < bytes.count else { throw fail(.truncated(.string(openedAt: opening))) }
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try buffer.withUnsafeBufferPointer { (run) throws(Failure) in try makeString(run, at: start) }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail(.truncated(.escape)) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &buffer)
                default:
                    index -= 1
                    throw fail(.invalidEscape(escape))
                }
            default:
                if byte < 0x20 { throw fail(.controlCharacter(byte)) }
                buffer.append(byte)
                index += 1
            }
        }
        throw fail(.truncated(.string(openedAt: opening)))
    }

    @inlinable package mutating func appendUnicodeEscape(to buffer: inout [UInt8]) throws(Failure) {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let next = index
                index += 2
                let low = try hex4()
                if (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    guard loneSurrogates == .replace else { throw fail(.invalidSurrogatePair) }
                    // The escape after the lone half is a character of its own: read it next.
                    index = next
                    scalar = replacingLoneSurrogate()
                }
            } else {
                guard loneSurrogates == .replace else { throw fail(.loneHighSurrogate(scalar)) }
                scalar = replacingLoneSurrogate()
            }
        } else if (0xDC00...0xDFFF).contains(scalar) {
            guard loneSurrogates == .replace else { throw fail(.loneLowSurrogate(scalar)) }
            scalar = replacingLoneSurrogate()
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw fail(.invalidScalar) }
        UTF8.encode(unicode) { buffer.append($0) }
    }

    @inlinable package mutating func replacingLoneSurrogate() -> UInt32 {
        replacedSurrogates += 1
        return 0xFFFD
    }

    @inlinable package mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail(.truncated(.unicodeEscape)) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidHexDigit(byte))
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A `String` of `run`, all of it ASCII: copied into the string's storage and checked there
    /// (an ASCII check, one word at a time), which costs a third less than `String(decoding:)`'s
    /// check and repair path for a string of a few bytes (callgrind).
    @inlinable package static func asciiString(_ run: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: run.count) { storage in
            storage.initialize(fromContentsOf: run)
        }
    }

    @inlinable package func makeString(_ run: UnsafeBufferPointer<UInt8>, at start: Int) throws(Failure) -> String {
        // Not String(validating:as:): being generic over the encoding, it looks up type metadata
        // on every call, which cost a quarter of the time of reading a suite file.
        if let bad = UTF8Validation.firstInvalidOffset(in: run) {
            throw Failure(.invalidUTF8, at: start + bad, in: bytes)
        }
        return String(decoding: run, as: UTF8.self)
    }

    /// The value of the integer of at most 18 digits that starts at `index`, moving past it;
    /// `nil`, not moving, for any other number or for what is not one (``scanNumber()`` then
    /// reads it, or says what is wrong). One pass over the digits, where scanning the number and
    /// then converting its text took two, with a call and an overflow check per digit.
    @inline(__always)
    @inlinable package mutating func scanShortInteger() -> Int? {
        let count = bytes.count
        let negative = bytes[index] == UInt8(ascii: "-")
        let first = negative ? index + 1 : index
        if first + 8 <= count, let base = bytes.baseAddress {
            // Up to seven digits, nearly every integer of a suite, from one word.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + first).loadUnaligned(as: UInt64.self))
            let digits = Self.leadingDigitCount(in: word)
            if digits < 8 {
                guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
                switch bytes[first + digits] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
                index = first + digits
                let value = Self.valueOfDigits(in: word, count: digits)
                return negative ? 0 &- value : value
            }
        }
        var position = first
        var value = 0
        while position < count, position - first < 18 {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            position += 1
        }
        let digits = position - first
        // No digit, a leading zero, a 19th digit, a fraction or an exponent: not ours.
        guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
        if position < count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        index = position
        return negative ? 0 &- value : value
    }

    /// How many of `word`'s bytes (the first in the low bits) are digits before the first that
    /// is not; 8 when all are.
    @inline(__always)
    @inlinable package static func leadingDigitCount(in word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte is a digit when its high half is 3 and its low half at most 9 (adding 6 keeps
        // it under 0x40). The addition's carry out of a byte of 0xFA or more can only misjudge
        // the bytes after that one, which is not a digit: the first non-digit is always right.
        let highHalfNotThree = (word & (ones &* 0xF0)) ^ (ones &* 0x30)
        let lowHalfOverNine = ((word &+ ones &* 0x06) & (ones &* 0xF0)) ^ (ones &* 0x30)
        let notDigit = highHalfNotThree | lowHalfOverNine
        // The high bit of each byte of `notDigit` that is not zero.
        let flagged = (((notDigit & (ones &* 0x7F)) &+ ones &* 0x7F) | notDigit) & (ones &* 0x80)
        return flagged.trailingZeroBitCount / 8
    }

    /// The value of the first `count` (1 to 7) bytes of `word`, all digits, the first the most
    /// significant: three multiplications for all of them (the usual eight-digit method).
    @inline(__always)
    @inlinable package static func valueOfDigits(in word: UInt64, count: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // The digits' values, moved up so that the bytes below them are leading zeros.
        var value = ((word &- ones &* 0x30) & ((1 << UInt64(8 * count)) &- 1)) << UInt64(8 * (8 - count))
        value = value &* 10 &+ (value >> 8)
        let pairs: UInt64 = 0x0000_00FF_0000_00FF
        value = ((value & pairs) &* (100 &+ (1_000_000 << 32)) &+ ((value >> 16) & pairs) &* (1 &+ (10_000 << 32))) >> 32
        return Int(truncatingIfNeeded: value & 0xFFFF_FFFF)
    }

    /// Moves past the number that starts at `index`, checking JSON's grammar for numbers;
    /// `true` when it has neither a fraction nor an exponent.
    @inlinable package mutating func scanNumber() throws(Failure) -> Bool {
        // A local position, stored back once, as in scanStringKeepingASCII(); `index` is set
        // before each failure, which reports where it is.
        let count = bytes.count
        var position = index
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < count, isDigit(bytes[position]) else {
            index = position
            throw fail(.missingDigit(found: position < count ? bytes[position] : nil))
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(bytes[position]) {
                index = position
                throw fail(.leadingZero)
            }
        } else {
            position = endOfDigits(from: position)
        }
        if position < count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < count, isDigit(bytes[position]) else {
                index = position
                throw fail(.missingFractionDigit)
            }
            position = endOfDigits(from: position)
        }
        if position < count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < count, isDigit(bytes[position]) else {
                index = position
                throw fail(.missingExponentDigit)
            }
            position = endOfDigits(from: position)
        }
        index = position
        return isInteger
    }

    /// The position of the first byte from `position` on that is not a digit.
    @inline(__always)
    @inlinable package func endOfDigits(from position: Int) -> Int {
        var position = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        return position
    }

    /// Moves past `word` (`true`, `false` or `null`), which must start at `index`.
    @inlinable package mutating func scanWord(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail(.truncated(.literal("\(word)"))) }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw fail(.invalidLiteral(expected: "\(word)")) }
        index += count
    }

    // Inlined: called between every two tokens, and a call costs more than the usual single test.
    // A local position, stored back once (see scanStringKeepingASCII()).
    @inline(__always)
    @inlinable package mutating func skipWhitespace() {
        var position = index
        let count = bytes.count
        while position < count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default:
                index = position
                return
            }
        }
        index = position
    }

    @inlinable package func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A failure at the current position.
    @inlinable package func fail(_ problem: JSONProblem) -> Failure {
        Failure(problem, at: index, in: bytes)
    }
}
