/// What is wrong with a JSON text, as data rather than words.
///
/// ``JSONReader/Failure`` carries one beside its ``JSONReader/Failure/reason``, so that a reader
/// written for other people (the importer, talking about a browser's dump file) can word
/// the same problem its own way without scanning the text again.
public enum JSONProblem: Sendable, Equatable {
    /// A part of a JSON text that the input can end inside.
    public enum Construct: Sendable, Equatable {
        case value
        case object
        case array
        /// A string whose opening quote is at this byte offset.
        case string(openedAt: Int)
        case escape
        case unicodeEscape
        /// `true`, `false` or `null`.
        case literal(String)
    }

    /// The input holds no value at all: it is empty, or only white space.
    case noValue
    /// The input ends inside a construct.
    case truncated(Construct)
    /// More than white space follows the value.
    case trailingText
    /// A byte that cannot start a value.
    case notAValue(UInt8)
    /// An object member that does not start with a string key.
    case keyNotString(UInt8)
    /// No `:` after a key; `nil` when the input ends there.
    case missingColon(found: UInt8?)
    case missingCommaOrBrace(found: UInt8)
    case missingCommaOrBracket(found: UInt8)
    /// Nesting deeper than ``JSONReader/maximumDepth``.
    case tooDeep
    /// A byte below U+0020 inside a string.
    case controlCharacter(UInt8)
    /// The letter after a backslash.
    case invalidEscape(UInt8)
    case invalidHexDigit(UInt8)
    case loneHighSurrogate(UInt32)
    case loneLowSurrogate(UInt32)
    /// A high surrogate escape followed by an escape that is not a low surrogate.
    case invalidSurrogatePair
    case invalidScalar
    case invalidUTF8
    /// No digit where a number needs one; `nil` when the input ends there.
    case missingDigit(found: UInt8?)
    case leadingZero
    case missingFractionDigit
    case missingExponentDigit
    /// A number, as written, that does not fit the value it is read into.
    case numberOutOfRange(String)
    case invalidLiteral(expected: String)

    /// The words of ``JSONReader/Failure/reason``, unchanged since the reader's first release:
    /// logs, the CLI and people's scripts quote them.
    @inlinable package var reason: String {
        switch self {
        case .noValue, .truncated(.value), .truncated(.literal):
            return "unexpected end of input: the JSON is truncated"
        case .truncated(.object):
            return "unexpected end of input inside an object: the JSON is truncated"
        case .truncated(.array):
            return "unexpected end of input inside an array: the JSON is truncated"
        case .truncated(.string):
            return "unterminated string: the JSON is truncated"
        case .truncated(.escape):
            return "unterminated escape: the JSON is truncated"
        case .truncated(.unicodeEscape):
            return "truncated \\u escape: the JSON is truncated"
        case .trailingText:
            return "unexpected text after the JSON value"
        case .notAValue(let byte):
            return "unexpected character '\(Self.printable(byte))': expected a JSON value"
        case .keyNotString:
            return "expected a string key in double quotes"
        case .missingColon:
            return "expected ':' after an object key"
        case .missingCommaOrBrace:
            return "expected ',' or '}' after an object member"
        case .missingCommaOrBracket:
            return "expected ',' or ']' after an array element"
        case .tooDeep:
            return "nesting deeper than \(JSONReader.maximumDepth) levels"
        case .controlCharacter(let byte):
            return "control character U+\(Self.hex(byte)) inside a string must be escaped"
        case .invalidEscape(let letter):
            return "invalid escape '\\\(Self.printable(letter))' in a string"
        case .invalidHexDigit(let byte):
            return "invalid hex digit '\(Self.printable(byte))' in a \\u escape"
        case .loneHighSurrogate(let scalar):
            return "lone UTF-16 high surrogate \\u\(String(scalar, radix: 16)) in a string"
        case .loneLowSurrogate(let scalar):
            return "lone UTF-16 low surrogate \\u\(String(scalar, radix: 16)) in a string"
        case .invalidSurrogatePair:
            return "invalid UTF-16 surrogate pair in a string"
        case .invalidScalar:
            return "invalid Unicode escape in a string"
        case .invalidUTF8:
            return "the text is not valid UTF-8"
        case .missingDigit:
            return "expected a digit in a number"
        case .leadingZero:
            return "a number may not have leading zeros"
        case .missingFractionDigit:
            return "expected a digit after the decimal point"
        case .missingExponentDigit:
            return "expected a digit in the exponent"
        case .numberOutOfRange(let text):
            // A hostile number can be megabytes long: the message shows its start and length.
            let shown = text.utf8.count > 40 ? String(decoding: text.utf8.prefix(32), as: UTF8.self) + "… (\(text.utf8.count) characters)" : text
            return "number \(shown) is out of range"
        case .invalidLiteral(let word):
            return "unexpected word: expected \(word)"
        }
    }

    @inlinable package static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
    }

    @inlinable package static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
