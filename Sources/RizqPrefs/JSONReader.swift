import Foundation

/// A strict, fast UTF-8 JSON reader that produces ``PrefValue``s.
///
/// It keeps the types that Foundation's readers lose: `1.0` reads as `.double(1.0)` and `1` as
/// `.int(1)`; integers use the full 64-bit range; `{"$date": …}` and `{"$data": …}` become
/// `.date` and `.data`. It refuses what is not JSON (trailing commas, comments, single quotes,
/// invalid UTF-8, lone surrogates, NaN) with a ``JSONReader/Failure`` that gives the byte offset,
/// line and column of the problem.
///
/// ```swift
/// let value = try JSONReader.parse(Array(#"{"streak": 7}"#.utf8))
/// ```
public struct JSONReader {
    /// Why a text is not JSON, and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. "expected ',' or '}' after an object member".
        public var reason: String
        /// Zero-based byte offset of the problem in the input.
        public var offset: Int
        /// One-based line of the problem.
        public var line: Int
        /// One-based column (in bytes) of the problem.
        public var column: Int

        /// "line L, column C (byte O): reason".
        public var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
    }

    /// Nesting deeper than this is refused, so that a hostile file cannot exhaust the stack.
    public static let maximumDepth = 512

    /// Keys that occurred more than once in the top-level object of the last parse (the last
    /// occurrence wins, as in JavaScript).
    public private(set) var duplicateTopLevelKeys: [String] = []

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON text (surrounded only by white space) into a value.
    /// - Throws: ``Failure`` with the position of the first problem.
    public static func parse(_ data: some ContiguousBytes) throws(Failure) -> PrefValue {
        try parseReporting(data).value
    }

    /// Parses like ``parse(_:)`` and also returns the keys that were repeated in the top-level
    /// object.
    public static func parseReporting(_ data: some ContiguousBytes) throws(Failure) -> (value: PrefValue, duplicateKeys: [String]) {
        let result: Result<(PrefValue, [String]), Failure> = data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            do {
                let value = try reader.parseDocument()
                return .success((value, reader.duplicateTopLevelKeys))
            } catch let failure as Failure {
                return .failure(failure)
            } catch {
                return .failure(Failure(reason: "\(error)", offset: 0, line: 1, column: 1))
            }
        }
        switch result {
        case .success(let pair): return (pair.0, pair.1)
        case .failure(let failure): throw failure
        }
    }

    /// Parses a Swift string as JSON.
    public static func parse(_ text: String) throws(Failure) -> PrefValue {
        try parse(Array(text.utf8))
    }

    // MARK: - Grammar

    private mutating func parseDocument() throws -> PrefValue {
        skipWhitespace()
        if bytes.count >= 3, index == 0, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            skipWhitespace()
        }
        let value = try parseValue(topLevel: true)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue(topLevel: Bool = false) throws -> PrefValue {
        guard index < bytes.count else { throw fail("unexpected end of input: the JSON is truncated") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(topLevel: topLevel)
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw fail("unexpected character '\(printable(bytes[index]))': expected a JSON value")
        }
    }

    private mutating func parseObject(topLevel: Bool) throws -> PrefValue {
        try enter()
        index += 1
        var entries: [String: PrefValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .dictionary(entries)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input inside an object: the JSON is truncated") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key in double quotes") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            if entries.updateValue(value, forKey: key) != nil, topLevel {
                duplicateTopLevelKeys.append(key)
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input inside an object: the JSON is truncated") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' after an object member") }
            index += 1
            break
        }
        depth -= 1
        if entries.count == 1, let (key, payload) = entries.first, key.hasPrefix("$"),
            let tagged = TaggedValue.decode(key: key, payload: payload)
        {
            return tagged
        }
        return .dictionary(entries)
    }

    private mutating func parseArray() throws -> PrefValue {
        try enter()
        index += 1
        var items: [PrefValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input inside an array: the JSON is truncated") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' after an array element") }
            index += 1
            break
        }
        depth -= 1
        return .array(items)
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseString() throws -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes. Validation of UTF-8 happens once, on the whole run.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try makeString(run, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character U+\(hex(byte)) inside a string must be escaped") }
            index += 1
        }
        guard index < bytes.count else { throw fail("unterminated string: the JSON is truncated") }
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try buffer.withUnsafeBufferPointer { try makeString($0, at: start) }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape: the JSON is truncated") }
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
                    throw fail("invalid escape '\\\(printable(escape))' in a string")
                }
            default:
                if byte < 0x20 { throw fail("control character U+\(hex(byte)) inside a string must be escaped") }
                buffer.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string: the JSON is truncated")
    }

    private mutating func appendUnicodeEscape(to buffer: inout [UInt8]) throws {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("lone UTF-16 high surrogate \\u\(String(scalar, radix: 16)) in a string")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid UTF-16 surrogate pair in a string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("lone UTF-16 low surrogate \\u\(String(scalar, radix: 16)) in a string")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid Unicode escape in a string") }
        buffer.append(contentsOf: String(Character(unicode)).utf8)
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape: the JSON is truncated") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid hex digit '\(printable(byte))' in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func makeString(_ run: UnsafeBufferPointer<UInt8>, at start: Int) throws -> String {
        if let string = String(validating: run, as: UTF8.self) { return string }
        // Point at the first byte that breaks UTF-8.
        var offset = start
        var decoder = UTF8()
        var iterator = run.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error: break loop
            }
        }
        throw Failure(reason: "the text is not valid UTF-8", offset: offset, line: 0, column: 0).located(in: bytes)
    }

    private mutating func parseNumber() throws -> PrefValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("a number may not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit after the decimal point") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger {
            if let value = Self.parseInt(run) { return .int(value) }
            if run[0] != UInt8(ascii: "-"), let value = Self.parseUnsigned(run) { return .unsigned(value) }
        }
        let text = String(decoding: run, as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw fail("number \(text) is out of range")
        }
        return .double(value)
    }

    private static func parseInt(_ run: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let negative = run[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var value = 0
        while i < run.count {
            let digit = Int(run[i] - UInt8(ascii: "0"))
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    private static func parseUnsigned(_ run: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for byte in run {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }

    private mutating func expectWord(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input: the JSON is truncated") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw fail("unexpected word: expected \(word)") }
        index += count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func fail(_ reason: String) -> Failure {
        Failure(reason: reason, offset: index, line: 0, column: 0).located(in: bytes)
    }

    private func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}

extension JSONReader.Failure {
    /// Fills in line and column from the offset; only computed on failure.
    fileprivate func located(in bytes: UnsafeBufferPointer<UInt8>) -> JSONReader.Failure {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var copy = self
        copy.line = line
        copy.column = end - lineStart + 1
        return copy
    }
}
