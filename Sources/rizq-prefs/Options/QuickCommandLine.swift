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
        var words: [String] = []
        var options: [String: String] = [:]
        var flags: Set<String> = []
        var rest = arguments.dropFirst()[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("-") else {
                words.append(word)
                continue
            }
            let option: String
            var value: String?
            if let equals = word.firstIndex(of: "=") {
                option = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            } else {
                option = word
            }
            switch option {
            case "--app", "--suite", "--type":
                if value == nil { value = rest.popFirst() }
                // A value that looks like an option, or an option given twice: argument-parser says.
                guard let value, !value.hasPrefix("-"), options[option] == nil else { return nil }
                options[option] = value
            case "--json", "--bool", "--int", "--double", "--string", "--date", "--data":
                guard value == nil, flags.insert(option).inserted else { return nil }
            default:
                return nil
            }
        }
        var store = StoreOptions()
        store.app = options["--app"]
        store.suite = options["--suite"]
        switch name {
        case "get":
            guard words.count == 1, options["--type"] == nil, flags.isSubset(of: ["--json"]) else { return nil }
            var command = GetCommand()
            command.store = store
            command.key = words[0]
            command.json = flags.contains("--json")
            return command
        case "set":
            let typeFlags = flags.compactMap { ValueTypeFlag(rawValue: String($0.dropFirst(2))) }
            guard words.count == 2, typeFlags.count == flags.count, typeFlags.count <= 1 else { return nil }
            var command = SetCommand()
            command.store = store
            command.key = words[0]
            command.value = words[1]
            // Every property is given a value: argument-parser's wrappers trap when one that
            // was never parsed nor set is read.
            var typeOption: PrefValueType?
            if let type = options["--type"] {
                guard let parsed = PrefValueType(rawValue: type) else { return nil }
                typeOption = parsed
            }
            command.typeOption = typeOption
            command.typeFlag = typeFlags.first
            // --type int --bool: argument-parser's validation message.
            guard (try? command.validate()) != nil else { return nil }
            return command
        case "list":
            guard words.isEmpty, options["--type"] == nil, flags.isSubset(of: ["--json"]) else { return nil }
            var command = ListCommand()
            command.store = store
            command.json = flags.contains("--json")
            return command
        default:
            return nil
        }
    }
}
