#if CLI
#if canImport(Glibc)
import Glibc
#endif

/// The plain lines of the commands scripts call in loops — `rizq-prefs get KEY`,
/// `rizq-prefs set KEY VALUE --int` — read without argument-parser's reflection.
///
/// argument-parser finds a command's options by reflecting over its properties and decoding them,
/// and each step asks the Swift runtime whether a type conforms to a protocol: about forty
/// look-ups, each a scan of the binary's 7,251 conformance records (Foundation's among them),
/// two thirds of a `get` in a release build (docs/performance.md, "The command line's start-up,
/// again"). A plain line needs none of that: the command's name first, then long options each
/// once, flags, and arguments. Any other line — a short option, `--help`, `--`, a repeated or
/// unknown option, an option's value that looks like an option, a type given twice — returns
/// `nil` and goes to ``DirectCommandLine`` and argument-parser, with their own messages.
/// `RIZQ_PREFS_FULL_PARSER=1` turns this reader off with the direct one.
enum PlainCommandLine {
    /// The commands read this way, by name.
    static let commands: [String: any PlainLineCommand.Type] = [
        "get": GetCommand.self,
        "set": SetCommand.self,
    ]

    /// A plain line read: what it asks for, and the command that does it.
    struct Line {
        /// The command's ``PlainLineCommand/Request``.
        let request: Any
        /// Runs the command with it.
        let run: () throws -> Void
    }

    /// What `arguments` (without the program's name, as typed) ask for, when the line is plain;
    /// else `nil`.
    static func line(_ arguments: [String]) -> Line? {
        guard getenv("RIZQ_PREFS_FULL_PARSER") == nil, let name = arguments.first, let type = commands[name] else { return nil }
        return line(type, arguments.dropFirst())
    }

    private static func line<Command: PlainLineCommand>(_ type: Command.Type, _ words: ArraySlice<String>) -> Line? {
        guard let plain = PlainWords(words, options: Command.plainOptions, flags: Command.plainFlags),
              let request = Command.request(plain: plain) else { return nil }
        return Line(request: request, run: { try Command.run(request) })
    }
}
#endif
