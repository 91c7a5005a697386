import ArgumentParser

/// `--verbose`/`-v`: the libraries' debug log on stderr. Declared on the root command, so that
/// argument-parser accepts it before or after the subcommand and `--help` documents it; read
/// from the command line before parsing (``isRequested(in:)``), because logging is set up
/// before any library logs.
struct Verbosity: ParsableArguments {
    @Flag(name: [.short, .long], help: "Show the libraries' debug log on stderr: suites opened and written, Secret Service calls, import steps (never a secret or a stored value).")
    var verbose = false

    /// Whether `arguments` ask for the debug log: `-v` or `--verbose` before any `--`.
    static func isRequested(in arguments: [String]) -> Bool {
        for word in arguments {
            if word == "--" { return false }
            if word == "-v" || word == "--verbose" { return true }
        }
        return false
    }
}
