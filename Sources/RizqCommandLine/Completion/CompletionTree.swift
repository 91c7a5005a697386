#if CLI
import ArgumentParser
import Foundation

/// A command of an executable's tree, as the shell completion walks it: its names, options,
/// flags, positionals and subcommands — read from argument-parser's own description of the
/// tree (`--experimental-dump-help`, asked in process), so that what completes is exactly what
/// parses.
package struct CompletionTree: Decodable, Sendable {
    /// The command's name (the root's is the program's).
    package var commandName: String
    /// Its other names (`import-app`'s `migrate`): recognised on the line, never offered.
    package var aliases: [String]?
    /// What `--help` says of it.
    package var abstract: String?
    /// Whether `--help` lists it (hidden commands are not offered).
    package var shouldDisplay: Bool?
    /// Its subcommands.
    package var subcommands: [CompletionTree]?
    /// Its options, flags and positionals.
    package var arguments: [Argument]?

    /// An option, a flag or a positional.
    package struct Argument: Decodable, Sendable {
        /// `option`, `flag` or `positional`.
        package var kind: String
        /// `--name`, `-n`: the option's or flag's names.
        package var names: [Name]?
        /// Whether it may be given more than once.
        package var isRepeating: Bool?
        /// Whether `--help` lists it.
        package var shouldDisplay: Bool?
        /// What `--help` says of it.
        package var abstract: String?
        /// argument-parser's parsing strategy: a positional that takes the rest of the line
        /// (`allRemainingInput`, `postTerminator`) ends the walk.
        package var parsingStrategy: String?
        /// Its values, for a value of a closed set.
        package var allValues: [String]?
        /// How its value completes (`{"list": {"values": […]}}`, `{"file": …}`, `{"directory": {}}`).
        package var completionKind: CompletionKind?

        /// An option's or flag's name and how it is spelt.
        package struct Name: Decodable, Sendable {
            /// `long`, `short` or `longWithSingleDash`.
            package var kind: String
            /// The name without dashes.
            package var name: String

            /// The name as typed: `--name`, `-n`, `-name`.
            package var spelling: String { kind == "long" ? "--" + name : "-" + name }
        }

        /// How a value completes.
        package struct CompletionKind: Decodable, Sendable {
            /// A closed list of values.
            package var list: List?
            /// A file name (with one of the extensions, when given).
            package var file: File?
            /// A folder name.
            package var directory: Empty?

            /// `{"values": […]}`.
            package struct List: Decodable, Sendable { package var values: [String] }
            /// `{"extensions": […]}`.
            package struct File: Decodable, Sendable { package var extensions: [String]? }
            /// `{}`.
            package struct Empty: Decodable, Sendable {}
        }

        /// Every way the option or flag is spelt on a line.
        package var spellings: [String] { (names ?? []).map(\.spelling) }
        /// Whether `--help` lists it.
        package var isShown: Bool { shouldDisplay ?? true }
        /// Whether it takes the rest of the line (a handed-over command's words).
        package var takesTheRest: Bool { ["allRemainingInput", "postTerminator", "allUnrecognized"].contains(parsingStrategy ?? "") }
    }

    /// Whether `--help` lists it.
    package var isShown: Bool { shouldDisplay ?? true }

    /// The subcommand called `word` (by its name or an alias).
    package func subcommand(named word: String) -> CompletionTree? {
        subcommands?.first { $0.commandName == word || ($0.aliases ?? []).contains(word) }
    }

    /// The option or flag spelt `word` (`--name`, `-n`).
    package func option(spelt word: String) -> Argument? {
        arguments?.first { $0.kind != "positional" && $0.spellings.contains(word) }
    }

    /// The positionals, in order.
    package var positionals: [Argument] { (arguments ?? []).filter { $0.kind == "positional" } }

    /// The tree of `root`, as argument-parser describes it; `nil` when it cannot be read.
    package static func of(_ root: any ParsableCommand.Type) -> CompletionTree? {
        struct Tool: Decodable { var command: CompletionTree }
        let description: String
        do {
            _ = try root.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            description = root.fullMessage(for: error)
        }
        return try? JSONDecoder().decode(Tool.self, from: Data(description.utf8)).command
    }
}
#endif
