#if CLI
import ArgumentParser

/// Checks the command words of a command line before argument-parser sees them: it takes an
/// unknown command for a stray argument (`lsit`: "Unexpected argument") and answers `help
/// nosuch` with the general help and success. Here both are an unknown command, with the
/// nearest real one, exit 2.
///
/// Each executable asks about its own tree of commands, named by its root command:
/// `rizq-prefs`, and `rizq-prefs-secrets`, whose root stands for the same `rizq-prefs` (it runs
/// the `secret`, `import-app` and `doctor` commands that `rizq-prefs` hands over).
package enum CommandNames {
    /// The error for the first word that names no command under `root`, or `nil` when every
    /// command word is known.
    package static func check(_ arguments: [String], root: any ParsableCommand.Type) -> CLIError? {
        var command: any ParsableCommand.Type = root
        var path: [String] = []
        var askedForHelp = false
        for word in arguments {
            let subcommands = command.configuration.subcommands
            // Options, `--`, and the arguments of a command that has no subcommands end the check.
            if word.hasPrefix("-") || subcommands.isEmpty { return nil }
            if path.isEmpty, word == "help" {
                // `help help` is argument-parser's help of `help`.
                if askedForHelp { return nil }
                askedForHelp = true
                continue
            }
            guard let next = subcommands.first(where: { names(of: $0).contains(word) }) else {
                return unknown(word, under: path, among: subcommands.map(name(of:)), root: root)
            }
            command = next
            path.append(word)
        }
        return nil
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// The command's name and its aliases (`secret move` is also `secret migrate`).
    private static func names(of command: any ParsableCommand.Type) -> [String] {
        [name(of: command)] + command.configuration.aliases
    }

    private static func unknown(_ word: String, under path: [String], among names: [String], root: any ParsableCommand.Type) -> CLIError {
        let prefix = ([name(of: root)] + path).joined(separator: " ")
        let guess = Suggestion.nearest(word, among: names).map { " (did you mean '\(prefix) \($0)'?)" } ?? ""
        return CLIError(.usage, "unknown command '\(word)'\(guess); the commands of '\(prefix)' are \(names.joined(separator: ", ")); see '\(prefix) --help'")
    }

    /// Whether this process's command was typed under its old name `alias` (`migrate`), so that
    /// the command can point to its new one.
    package static func typedAlias(_ alias: String, root: any ParsableCommand.Type) -> Bool {
        command(for: Array(CommandLine.arguments.dropFirst()), root: root).words.last == alias
    }

    /// The command the command words name (the root when there are none), and those words.
    package static func command(for arguments: [String], root: any ParsableCommand.Type) -> (command: any ParsableCommand.Type, words: [String]) {
        var command: any ParsableCommand.Type = root
        var words: [String] = []
        for word in arguments where !word.hasPrefix("-") {
            guard let next = command.configuration.subcommands.first(where: { names(of: $0).contains(word) }) else { break }
            command = next
            words.append(word)
        }
        return (command, words)
    }

    /// What to add to argument-parser's "Unknown option '--x'": the option meant (`--float` →
    /// `--double`), or, for an option of a command typed before the command's name (`rizq-prefs
    /// --suite S list`), where it goes.
    package static func hint(forUnknownOption option: String, in arguments: [String], root: any ParsableCommand.Type) -> String? {
        let (command, words) = command(for: arguments, root: root)
        let bare = String(option.drop { $0 == "-" })
        let options = longOptions(of: command, root: root)
        if let meant = Suggestion.nearest(bare, among: options.sorted()), meant != bare {
            return "did you mean '--\(meant)'?"
        }
        // Typed before the name of the command it belongs to (`secret --raw set`).
        let owner = options.contains(bare) ? words : firstCommand(under: command, path: words, withOption: bare, root: root)
        if let owner, !owner.isEmpty {
            return "'--\(bare)' is an option of a command: put it after the command's name, as in '\(name(of: root)) \(owner.joined(separator: " ")) --\(bare) …'"
        }
        return nil
    }

    /// The long options (without their dashes) in the OPTIONS section of a command's help.
    private static func longOptions(of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> Set<String> {
        let help = root.helpMessage(for: command)
        guard let section = help.range(of: "\nOPTIONS:\n") else { return [] }
        var options: Set<String> = []
        for line in help[section.upperBound...].split(separator: "\n") {
            // A row starts with its names ("  -h, --help", "  --type <type>"), then two spaces and the text.
            let row = line.drop { $0 == " " }
            guard row.hasPrefix("-") else { continue }
            let names = row.range(of: "  ").map { row[..<$0.lowerBound] } ?? row
            for word in names.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("--") {
                let name = word.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                if name.first?.isLetter == true { options.insert(String(name)) }
            }
        }
        return options
    }

    /// The words of the first command below `command` that has the long option `option`.
    private static func firstCommand(under command: any ParsableCommand.Type, path: [String], withOption option: String, root: any ParsableCommand.Type) -> [String]? {
        for subcommand in command.configuration.subcommands {
            let words = path + [name(of: subcommand)]
            if subcommand.configuration.subcommands.isEmpty {
                if longOptions(of: subcommand, root: root).contains(option) { return words }
            } else if let found = firstCommand(under: subcommand, path: words, withOption: option, root: root) {
                return found
            }
        }
        return nil
    }
}
#endif
