/// The lexical half of ``JSONReader``: strings with their escapes and surrogate pairs, numbers,
/// the three words, white space, and failures at the current position. Whatever the reader
/// builds, it scans with these.
extension JSONReader {
    /// Reads the string whose opening quote is at `index`, and moves past its closing quote.
    mutating func scanString() throws(Failure) -> String {
        let opening = index
        index += 1
        let start = index
        // Fast path: no escapes. Validation of UTF-8 happens once, on the whole run, and only
        // if a byte of it is not ASCII.
        var allBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try makeString(run, at: start, isASCII: allBits < 0x80)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail(.controlCharacter(byte)) }
            allBits |= byte
            index += 1
        }
        guard index < bytes.count else { throw fail(.truncated(.string(openedAt: opening))) }
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try buffer.withUnsafeBufferPointer { (run) throws(Failure) in try makeString(run, at: start, isASCII: false) }
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

    private mutating func appendUnicodeEscape(to buffer: inout [UInt8]) throws(Failure) {
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

    private mutating func replacingLoneSurrogate() -> UInt32 {
        replacedSurrogates += 1
        return 0xFFFD
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
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

    private func makeString(_ run: UnsafeBufferPointer<UInt8>, at start: Int, isASCII: Bool) throws(Failure) -> String {
        // Not String(validating:as:): being generic over the encoding, it looks up type metadata
        // on every call, which cost a quarter of the time of reading a suite file.
        if !isASCII, let bad = UTF8Validation.firstInvalidOffset(in: run) {
            throw Failure(.invalidUTF8, at: start + bad, in: bytes)
        }
        return String(decoding: run, as: UTF8.self)
    }

    /// Moves past the number that starts at `index`, checking JSON's grammar for numbers;
    /// `true` when it has neither a fraction nor an exponent.
    mutating func scanNumber() throws(Failure) -> Bool {
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw fail(.missingDigit(found: index < bytes.count ? bytes[index] : nil))
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail(.leadingZero) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.missingFractionDigit) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.missingExponentDigit) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return isInteger
    }

    /// Moves past `word` (`true`, `false` or `null`), which must start at `index`.
    mutating func scanWord(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail(.truncated(.literal("\(word)"))) }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw fail(.invalidLiteral(expected: "\(word)")) }
        index += count
    }

    // Inlined: called between every two tokens, and a call costs more than the usual single test.
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A failure at the current position.
    func fail(_ problem: JSONProblem) -> Failure {
        Failure(problem, at: index, in: bytes)
    }
}
