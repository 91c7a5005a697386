#if Secrets
import RizqPrefs
import RizqJSON

/// A JSON problem in the words of the importer's messages, which talk to someone holding a
/// dump or plan file: where a cut-off string started, what was found instead of what was
/// expected, and "file" rather than "JSON".
extension JSONReader.Failure {
    var fileReason: String {
        guard let problem else { return reason }
        switch problem {
        case .noValue:
            // The reader skips white space (and a byte-order mark) before it finds no value.
            return offset == 0 ? "the file is empty" : "the file holds only white space"
        case .truncated(.string(let opening)):
            return "the input ends inside the string that starts at byte \(opening): it is truncated"
        case .truncated(let construct):
            return Self.truncated(inside: Self.name(construct))
        case .trailingText:
            return "unexpected text after the end of the JSON value"
        case .notAValue(let byte):
            return "unexpected \(Self.describe(byte)): expected a JSON value"
        case .keyNotString(let byte):
            return "expected a key in double quotes, found \(Self.describe(byte))"
        case .missingColon(let byte?):
            return "expected ':' after the key, found \(Self.describe(byte))"
        case .missingColon(nil):
            return Self.truncated(inside: "an object")
        case .missingCommaOrBrace(let byte):
            return "expected ',' or '}' after an object member, found \(Self.describe(byte))"
        case .missingCommaOrBracket(let byte):
            return "expected ',' or ']' after an array element, found \(Self.describe(byte))"
        case .missingDigit(let byte?):
            return "expected a digit in a number, found \(Self.describe(byte))"
        case .missingDigit(nil):
            return Self.truncated(inside: "a number")
        case .tooDeep:
            return "values are nested more than \(JSONReader.maximumDepth) levels deep"
        case .controlCharacter(let byte):
            return "a control character (U+\(Self.hex(byte, width: 4))) inside a string must be escaped"
        case .invalidLiteral(let word):
            return "unexpected word: expected '\(word)'"
        default:
            return reason
        }
    }

    private static func truncated(inside what: String) -> String {
        "the input ends inside \(what): the file is truncated"
    }

    private static func name(_ construct: JSONProblem.Construct) -> String {
        switch construct {
        case .value: return "a value"
        case .object: return "an object"
        case .array: return "an array"
        case .string, .escape, .unicodeEscape: return "a string"
        case .literal(let word): return "'\(word)'"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + hex(byte, width: 2)
    }

    private static func hex(_ byte: UInt8, width: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
#endif
