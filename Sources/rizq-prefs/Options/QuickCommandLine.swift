import ArgumentParser
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// The everyday one-line forms of `get`, `set` and `list`, read without argument-parser.
///
/// Shell scripts call `rizq-prefs get KEY` in loops, and argument-parser's `parseAsRoot` costs
/// about 15 million instructions a call (60 % of a one-key `get`): it walks the whole command
/// tree, and most of that is the Swift runtime looking up protocol conformances in the tables of
/// a binary that holds Foundation. This reader takes only the plain forms —
///
///     get  [--app ID] [--suite NAME] [--json] KEY
///     set  [--app ID] [--suite NAME] [--type T | --bool | --int | …] KEY VALUE
///     list [--app ID] [--suite NAME] [--json]
///
/// (options before, between or after the words, `--option=value` too) — and fills in the very
/// command types argument-parser would, so the command that runs is the same code. Anything else
/// (`--help`, `-v`, `--`, a word that starts with `-`, a repeated or unknown option, a missing or
/// extra word, a value that is not valid text) returns `nil`, and argument-parser reads the line
/// as always, with its own messages. `RIZQ_PREFS_FULL_PARSER=1` turns this reader off (the tests
/// compare both readers on the same lines).
enum QuickCommandLine {
    /// The command `arguments` (without the program's name) ask for, or `nil` when argument-parser
    /// must read them.
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first, getenv("RIZQ_PREFS_FULL_PARSER") == nil else { return nil }
        // Plain variables, no Dictionary or Set: each generic type a process first uses costs a
        // search of the binary's conformance tables, and this runs on every call.
        var words: [String] = []
        var app: String?, suite: String?, type: String?
        var json = false
        var typeFlag: ValueTypeFlag?
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-") else {
                words.append(word)
                continue
            }
            var option = word
            var value: String?
            if let equals = word.firstIndex(of: "=") {
                option = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            }
            if option == "--app" || option == "--suite" || option == "--type" {
                if value == nil, index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
                // A value that looks like an option, or an option given twice: argument-parser says.
                guard let value, !value.hasPrefix("-") else { return nil }
                switch option {
                case "--app":
                    guard app == nil else { return nil }
                    app = value
                case "--suite":
                    guard suite == nil else { return nil }
                    suite = value
                default:
                    guard type == nil else { return nil }
                    type = value
                }
            } else if option == "--json", value == nil, !json, name != "set" {
                json = true
            } else if name == "set", value == nil, typeFlag == nil, option.hasPrefix("--"), let flag = ValueTypeFlag(rawValue: String(option.dropFirst(2))) {
                typeFlag = flag
            } else {
                return nil
            }
        }
        var store = StoreOptions()
        store.app = app
        store.suite = suite
        switch name {
        case "get":
            guard words.count == 1, type == nil else { return nil }
            var command = GetCommand()
            command.store = store
            command.key = words[0]
            command.json = json
            // `--mounted` never comes this way (an unknown option here): argument-parser reads it.
            command.mounted = nil
            return command
        case "set":
            guard words.count == 2 else { return nil }
            var command = SetCommand()
            command.store = store
            command.key = words[0]
            command.value = words[1]
            // Every property is given a value: argument-parser's wrappers trap when one that
            // was never parsed nor set is read.
            var typeOption: PrefValueType?
            if let type {
                guard let parsed = PrefValueType(rawValue: type) else { return nil }
                typeOption = parsed
            }
            command.typeOption = typeOption
            command.typeFlag = typeFlag
            // --type int --bool: argument-parser's validation message.
            guard (try? command.validate()) != nil else { return nil }
            return command
        case "list":
            guard words.isEmpty, type == nil else { return nil }
            var command = ListCommand()
            command.store = store
            command.json = json
            return command
        default:
            return nil
        }
    }
}
