#if CLI
import Foundation

/// Lets negative numbers be values: `rizq-prefs set offset -7 --int`.
///
/// argument-parser reads any `-…` word as an option (apple/swift-argument-parser#31). This tool
/// has no option named with a digit, so a word that is a negative number is marked before
/// parsing, and arguments and option values drop the mark (``unmarked(_:)``). The mark is a NUL
/// character: no word of a command line can hold one (the kernel passes C strings), so taking
/// it off can never change what the user typed — any other character could start a real key.
/// Words after `--` are left alone: argument-parser already takes them as values.
package enum NegativeNumbers {
    package static let mark: Character = "\u{0}"

    package static func mark(_ arguments: [String]) -> [String] {
        var seenTerminator = false
        return arguments.map { word in
            if word == "--" { seenTerminator = true }
            return !seenTerminator && isNegativeNumber(word) ? String(mark) + word : word
        }
    }

    /// `-7`, `-0.5`, `-.5`, `-1e3`.
    package static func isNegativeNumber(_ word: String) -> Bool {
        guard word.count >= 2, word.hasPrefix("-") else { return false }
        let body = word.dropFirst()
        guard body.first?.isNumber == true || (body.first == "." && body.dropFirst().first?.isNumber == true) else { return false }
        return body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-") }
    }

    /// An argument or option value as the user typed it.
    package static func unmarked(_ word: String) -> String {
        word.first == mark ? String(word.dropFirst()) : word
    }

    /// argument-parser's message about the command line, with the words as the user typed them.
    package static func unmarkedMessage(_ text: String) -> String {
        text.replacingOccurrences(of: String(mark), with: "")
    }
}
#endif
