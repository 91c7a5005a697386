#if CLI
import ArgumentParser

/// Shell completion, asked of the program itself at each Tab: the scripts of
/// ``CompletionScript`` run `rizq-prefs __complete WORD…` (the words typed after the program's
/// name, the last one the word being completed, perhaps empty) and offer what it prints. So one
/// walk of the real command tree serves bash, zsh and fish, and the commands `rizq-prefs` hands
/// to another executable (`secret`, `import-app`, `doctor`, `fleet`) complete from that
/// executable's own tree: `rizq-prefs` hands the request over as it hands the command over.
///
/// What it prints: one candidate a line, `WORD` or `WORD<Tab>DESCRIPTION`; then a line
/// `:files` or `:directories` when file or folder names fit too (the shell lists those itself).
package enum ShellCompletion {
    /// The first word of a completion request.
    package static let requestWord = "__complete"

    /// What completes the last of `words`.
    package struct Result: Equatable, Sendable {
        /// The candidates, with their descriptions (empty when there is none).
        package var candidates: [(word: String, description: String)] = []
        /// Whether file names (`files`) or folder names (`directories`) complete it too.
        package var names: String?

        /// The lines the scripts read.
        package var lines: [String] {
            candidates.map { $0.description.isEmpty ? $0.word : $0.word + "\t" + $0.description } + (names.map { [":" + $0] } ?? [])
        }

        package static func == (left: Result, right: Result) -> Bool { left.lines == right.lines }
    }

    /// What the shells ask, answered before anything else of an executable's `main` (each calls
    /// it first): a completion, or the completion script itself (``CompletionScript``, in place
    /// of argument-parser's, which knows nothing of the commands handed to other executables).
    /// Exits when the line is either; returns when it is neither.
    package static func answerShellRequests(root: any ParsableCommand.Type) {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == requestWord { answer(Array(arguments.dropFirst()), root: root) }
        guard let first = arguments.first, first == "--generate-completion-script" || first.hasPrefix("--generate-completion-script=") else { return }
        let shell = first.contains("=") ? String(first.split(separator: "=", maxSplits: 1)[1]) : arguments.dropFirst().first ?? ""
        guard arguments.count == (first.contains("=") ? 1 : 2), let script = CompletionScript.script(for: shell) else {
            Output.error("--generate-completion-script takes one of \(CompletionScript.shells.joined(separator: ", ")) (got '\(shell)'); e.g. rizq-prefs --generate-completion-script bash > /usr/share/bash-completion/completions/rizq-prefs")
            CommandLineMain.exitWithoutFlushing(.usage)
        }
        Output.raw(script)
        CommandLineMain.exitWithoutFlushing(.success)
    }

    /// Answers a completion request (`arguments`: the words after ``requestWord``) under `root`
    /// on stdout, and exits 0; prints nothing when the tree cannot be read.
    package static func answer(_ arguments: [String], root: any ParsableCommand.Type) -> Never {
        if let tree = CompletionTree.of(root) {
            for line in complete(arguments, in: tree).lines { Output.line(line) }
        }
        CommandLineMain.exitWithoutFlushing(.success)
    }

    /// What completes the last of `words` (the words after the program's name) in `tree`.
    package static func complete(_ words: [String], in tree: CompletionTree) -> Result {
        let current = words.last ?? ""
        var walk = Walk(command: tree)
        for word in words.dropLast() {
            guard walk.take(word) else { return Result() }
        }
        if let option = walk.awaitingValue, !(option.parsingStrategy == "upToNextOption" && current.hasPrefix("-")) {
            return values(of: option, prefix: "", matching: current)
        }
        if !walk.afterTerminator, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            // `--type=in`: the option's values, spelt with it.
            let spelling = String(current[..<equals])
            guard let option = walk.command.option(spelt: spelling), option.kind == "option" else { return Result() }
            return values(of: option, prefix: spelling + "=", matching: String(current[current.index(after: equals)...]))
        }
        if !walk.afterTerminator, current.hasPrefix("-") { return options(of: walk, matching: current) }

        var result = Result()
        if walk.positionalIndex == 0, let subcommands = walk.command.subcommands {
            result.candidates = subcommands.filter { $0.isShown && $0.commandName.hasPrefix(current) }.map { ($0.commandName, firstLine($0.abstract)) }
        }
        if let positional = walk.nextPositional {
            let more = values(of: positional, prefix: "", matching: current)
            result.candidates += more.candidates
            result.names = more.names
        }
        // Nothing else to offer: the options, as a reminder of what the command takes.
        if result.candidates.isEmpty, result.names == nil, current.isEmpty, !walk.afterTerminator { return options(of: walk, matching: current) }
        return result
    }

    /// The state of the walk over the words before the one being completed.
    private struct Walk {
        var command: CompletionTree
        var positionalIndex = 0
        var afterTerminator = false
        /// An option whose value is the next word.
        var awaitingValue: CompletionTree.Argument?
        /// The options and flags already given to this command (offered again only if repeatable).
        var given: Set<String> = []

        /// Takes one word; `false` when the rest of the line is not this tree's (a positional
        /// that takes every remaining word).
        mutating func take(_ word: String) -> Bool {
            if let option = awaitingValue {
                // An option of several values (`--keys a b`) takes words up to the next option.
                if option.parsingStrategy != "upToNextOption" { awaitingValue = nil }
                if option.parsingStrategy != "upToNextOption" || !word.hasPrefix("-") { return true }
                awaitingValue = nil
            }
            if !afterTerminator, word == "--" {
                afterTerminator = true
                return true
            }
            if !afterTerminator, word.hasPrefix("-"), word != "-" {
                let spelling = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
                if let option = command.option(spelt: spelling) {
                    given.formUnion(option.spellings)
                    if option.kind == "option", !word.contains("=") { awaitingValue = option }
                }
                return true
            }
            if positionalIndex == 0, !afterTerminator, let subcommand = command.subcommand(named: word) {
                self = Walk(command: subcommand)
                return true
            }
            guard let positional = nextPositional, !positional.takesTheRest else { return false }
            if positional.isRepeating != true { positionalIndex += 1 }
            return true
        }

        /// The positional the next word is, if any.
        var nextPositional: CompletionTree.Argument? {
            let positionals = command.positionals
            return positionalIndex < positionals.count ? positionals[positionalIndex] : nil
        }
    }

    /// The options and flags of the walk's command that start with `current` (and are not
    /// given yet, unless they repeat).
    private static func options(of walk: Walk, matching current: String) -> Result {
        var result = Result()
        for argument in walk.command.arguments ?? [] where argument.kind != "positional" && argument.isShown {
            if argument.isRepeating != true, argument.spellings.contains(where: walk.given.contains) { continue }
            for spelling in argument.spellings where spelling.hasPrefix(current) {
                result.candidates.append((spelling, firstLine(argument.abstract)))
            }
        }
        return result
    }

    /// The values of `argument` that start with `current`, spelt after `prefix`.
    private static func values(of argument: CompletionTree.Argument, prefix: String, matching current: String) -> Result {
        var result = Result()
        let kind = argument.completionKind
        let values = kind?.list?.values ?? argument.allValues ?? []
        result.candidates = values.filter { $0.hasPrefix(current) }.map { (prefix + $0, "") }
        if kind?.file != nil {
            result.names = "files"
        } else if kind?.directory != nil {
            result.names = "directories"
        }
        return result
    }

    /// The first sentence-line of a help text, for a candidate's description.
    private static func firstLine(_ text: String?) -> String {
        String((text ?? "").split(separator: "\n").first ?? "")
    }
}
#endif
