#if CLI
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The command a line names, parsed by argument-parser for that one command — from the very
/// declarations `--help` and the full parse use, so that every option is declared once.
///
/// Shell scripts call `rizq-prefs get KEY` in loops, and argument-parser's `parseAsRoot` walks
/// the whole command tree and, before anything, tries the line as two pseudo-commands that ask
/// for completion scripts: most of that is the Swift runtime looking up protocol conformances in
/// the tables of a binary that holds Foundation (two thirds of a one-key `get` in a release
/// build). A leaf command's words at the head of the line (`get`, `secret set`) name its type;
/// the rest of the line is parsed by ``Direct`` — that command and the root's `--verbose`, with
/// no completion-script check (a pseudo-root: `_superCommandName`). Anything it cannot take (an
/// option before the command's name, `--help`, `--version`, a mistake) returns `nil`, and
/// argument-parser reads the whole line from the root as always, with its own messages.
/// `RIZQ_PREFS_FULL_PARSER=1` turns this reader off (the tests compare both readers on the same
/// lines, for every option of every command).
package enum DirectCommandLine {
    /// The command `arguments` (without the program's name, negative numbers marked) ask for
    /// under `root`, or `nil` when argument-parser must read them from the root.
    package static func command(_ arguments: [String], root: any ParsableCommand.Type) -> (any ParsableCommand)? {
        guard getenv("RIZQ_PREFS_FULL_PARSER") == nil else { return nil }
        let (type, words) = CommandNames.command(for: arguments, root: root)
        guard !words.isEmpty, type.configuration.subcommands.isEmpty, Array(arguments.prefix(words.count)) == words else { return nil }
        return parse(type, Array(arguments.dropFirst(words.count)))
    }

    private static func parse<Command: ParsableCommand>(_ type: Command.Type, _ rest: [String]) -> (any ParsableCommand)? {
        (try? Direct<Command>.parse(rest))?.command
    }
}

/// One command parsed as its own root: its arguments and options as it declares them, and the
/// root's `--verbose` (``Verbosity``), which argument-parser accepts anywhere on a line.
package struct Direct<Command: ParsableCommand>: ParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Command.configuration.commandName, _superCommandName: "rizq-prefs")
    }

    /// The command, as parsed.
    @OptionGroup package var command: Command
    /// `--verbose`, anywhere on the line.
    @OptionGroup var verbosity: Verbosity

    /// Nothing parsed yet (argument-parser fills it in).
    package init() {}
}
#endif
