/// A strict JSON parser for dumps and plans that reports the byte offset of every problem and
/// keeps member order, repeated keys and number texts (see ``JSONNode``).
///
/// Differences from `JSONReader` in RizqPrefs, on purpose: no `$date`/`$data` tags (a web
/// app's JSON means what it says), and a lone UTF-16 surrogate escape (which JavaScript strings
/// can hold and `JSON.stringify` writes as `\udXXX`) becomes U+FFFD and is counted, instead of
/// failing the whole dump.
struct JSONNodeParser {
    /// Why the text is not JSON, and at which byte.
    struct Failure: Error, Sendable, Equatable {
        var reason: String
        var offset: Int
    }

    /// Nesting deeper than this is refused, so that a hostile file cannot exhaust the stack.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Lone surrogate escapes replaced by U+FFFD.
    private(set) var replacedSurrogates = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON text. The bytes must already be valid UTF-8 (see ``firstInvalidUTF8(in:)``).
    static func parse(_ bytes: [UInt8]) throws(Failure) -> (node: JSONNode, replacedSurrogates: Int) {
        var parser = JSONNodeParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        guard parser.index < bytes.count else {
            throw Failure(reason: bytes.isEmpty ? "the file is empty" : "the file holds only white space", offset: parser.index)
        }
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw Failure(reason: "unexpected text after the end of the JSON value", offset: parser.index)
        }
        return (node, parser.replacedSurrogates)
    }

    /// Parses a Swift string (for values that hold JSON).
    static func parse(_ text: String) throws(Failure) -> (node: JSONNode, replacedSurrogates: Int) {
        try parse(Array(text.utf8))
    }

    // MARK: Grammar

    private mutating func parseValue() throws(Failure) -> JSONNode {
        guard index < bytes.count else { throw truncated("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let start = index
            let text = try parseString()
            return JSONNode(kind: .string(text), range: start..<index)
        case UInt8(ascii: "t"): return try parseWord("true", .bool(true))
        case UInt8(ascii: "f"): return try parseWord("false", .bool(false))
        case UInt8(ascii: "n"): return try parseWord("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw Failure(reason: "unexpected \(describe(bytes[index])): expected a JSON value", offset: index)
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONNode {
        let start = index
        try enter()
        index += 1
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONNode(kind: .object(members), range: start..<index)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw truncated("an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw Failure(reason: "expected a key in double quotes, found \(describe(bytes[index]))", offset: index)
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw truncated("an object") }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw Failure(reason: "expected ':' after the key, found \(describe(bytes[index]))", offset: index)
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw truncated("an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else {
                throw Failure(reason: "expected ',' or '}' after an object member, found \(describe(bytes[index]))", offset: index)
            }
            index += 1
            depth -= 1
            return JSONNode(kind: .object(members), range: start..<index)
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONNode {
        let start = index
        try enter()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(kind: .array(elements), range: start..<index)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw truncated("an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else {
                throw Failure(reason: "expected ',' or ']' after an array element, found \(describe(bytes[index]))", offset: index)
            }
            index += 1
            depth -= 1
            return JSONNode(kind: .array(elements), range: start..<index)
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        let opening = index
        index += 1
        var runStart = index
        var buffer: [UInt8]?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text: String
                if var collected = buffer {
                    collected.append(contentsOf: bytes[runStart..<index])
                    text = String(decoding: collected, as: UTF8.self)
                } else {
                    text = String(decoding: bytes[runStart..<index], as: UTF8.self)
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                var collected = buffer ?? []
                collected.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &collected)
                buffer = collected
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw Failure(reason: "a control character (U+\(hex(UInt32(byte), width: 4))) inside a string must be escaped", offset: index)
            }
            index += 1
        }
        throw Failure(reason: "the input ends inside the string that starts at byte \(opening): it is truncated", offset: index)
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(Failure) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw truncated("a string") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            var scalar: Unicode.Scalar?
            if (0xD800...0xDBFF).contains(first) {
                // A high surrogate: a low one must follow as another \u escape to make a pair.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let save = index
                    index += 2
                    let second = try parseHex4()
                    if (0xDC00...0xDFFF).contains(second) {
                        scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                    } else {
                        index = save
                    }
                }
            } else if !(0xDC00...0xDFFF).contains(first) {
                scalar = Unicode.Scalar(first)
            }
            if scalar == nil { replacedSurrogates += 1 }
            buffer.append(contentsOf: String(Character(scalar ?? "\u{FFFD}")).utf8)
        default:
            throw Failure(reason: "invalid escape '\\\(describeRaw(letter))' in a string", offset: escapeStart)
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw truncated("a string") }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Failure(reason: "a \\u escape needs four hexadecimal digits", offset: index + offset)
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONNode {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw truncated("a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw Failure(reason: "expected a digit in a number, found \(describe(bytes[index]))", offset: index)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(reason: "expected a digit after the decimal point", offset: index)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(reason: "expected a digit in the exponent", offset: index)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        return JSONNode(kind: .number(text), range: start..<index)
    }

    private mutating func parseWord(_ word: StaticString, _ kind: JSONNode.Kind) throws(Failure) -> JSONNode {
        let start = index
        let expected = word.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard index < bytes.count else { throw truncated("'\(word)'") }
            guard bytes[index] == byte else {
                throw Failure(reason: "unexpected \(describe(bytes[index])): expected '\(word)'", offset: index)
            }
            index += 1
        }
        return JSONNode(kind: kind, range: start..<index)
    }

    // MARK: Helpers

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth {
            throw Failure(reason: "values are nested more than \(Self.maximumDepth) levels deep", offset: index)
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func truncated(_ what: String) -> Failure {
        Failure(reason: "the input ends inside \(what): the file is truncated", offset: bytes.count)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(UInt32(byte), width: 2))"
    }

    private func describeRaw(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "\\x\(hex(UInt32(byte), width: 2))"
    }

    private func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: UTF-8

    /// The offset of the first byte that is not part of valid UTF-8 (overlong forms, surrogates
    /// and values above U+10FFFF count as invalid), or `nil` when all of it is valid.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
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
}
