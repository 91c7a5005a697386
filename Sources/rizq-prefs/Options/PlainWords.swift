#if CLI
import RizqCommandLine

/// The words after a command's name, split into long options with their values, flags and
/// arguments — for the plain lines ``PlainCommandLine`` reads — or `nil` for any line that is not
/// plain.
///
/// Plain means: options only in their long form (`--app ID` or `--app=ID`), each at most once, a
/// value that does not look like an option, no `--`, no short option, no option the command does
/// not name. Anything else is argument-parser's to read (and, when it is a mistake, to explain).
struct PlainWords {
    /// Each value option given, by its long name without the dashes.
    private(set) var values: [String: String] = [:]
    /// Each flag given, by its long name without the dashes.
    private(set) var flags: Set<String> = []
    /// The arguments, in order.
    private(set) var arguments: [String] = []

    /// Splits `words` (the line after the command's name, as typed) by the command's `options`
    /// (long names that take a value) and `flags` (long names that take none).
    init?(_ words: ArraySlice<String>, options: Set<String>, flags: Set<String>) {
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), !NegativeNumbers.isNegativeNumber(word) else {
                arguments.append(word)
                continue
            }
            guard word.hasPrefix("--") else { return nil }
            let body = word.dropFirst(2)
            let name: String
            var value: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                value = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if options.contains(name) {
                if value == nil, index < words.endIndex {
                    value = words[index]
                    index += 1
                }
                guard let value, !value.isEmpty, Self.isValue(value), self.values.updateValue(value, forKey: name) == nil else { return nil }
            } else if flags.contains(name), value == nil {
                guard self.flags.insert(name).inserted else { return nil }
            } else {
                return nil
            }
        }
    }

    /// A word that is an option's value as it stands: not an option (a negative number is a value).
    private static func isValue(_ word: String) -> Bool {
        !word.hasPrefix("-") || NegativeNumbers.isNegativeNumber(word)
    }
}
extension SuiteChoice {
    /// The values of a plain line's `--suite` and `--app`.
    init(plain words: PlainWords) {
        self.init(suite: words.values["suite"], app: words.values["app"])
    }
}
#endif
