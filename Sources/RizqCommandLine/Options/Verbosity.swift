#if CLI
import ArgumentParser

/// `--verbose` (or `-v`): the libraries' debug log on stderr. Declared on the root command, so
/// that argument-parser accepts it before or after the subcommand and `--help` documents it; read
/// from the command line before parsing (``isRequested(in:)``), because logging is set up
/// before any library logs.
///
/// Only the long name is declared: a short option anywhere in the command tree would make
/// argument-parser split words such as `-odd-service` (a service name) into `-o -d -d …`.
/// `-v` is rewritten to `--verbose` before parsing instead (``expandingShortName(in:)``).
package struct Verbosity: ParsableArguments {
    @Flag(name: .long, help: "(or -v) Show the libraries' debug log on stderr: suites opened and written, Secret Service calls, import steps (never a secret or a stored value).")
    package var verbose = false

    /// No `--verbose` yet (argument-parser fills it in).
    package init() {}

    /// Whether `arguments` ask for the debug log: `-v` or `--verbose` before any `--`.
    package static func isRequested(in arguments: [String]) -> Bool {
        expandingShortName(in: arguments).prefix { $0 != "--" }.contains("--verbose")
    }

    /// `arguments` with the word `-v` (before any `--`) spelt `--verbose`.
    package static func expandingShortName(in arguments: [String]) -> [String] {
        var seenTerminator = false
        return arguments.map { word in
            if word == "--" { seenTerminator = true }
            return !seenTerminator && word == "-v" ? "--verbose" : word
        }
    }
}
#endif
