#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import Logging
import RizqPrefs

/// Runs the command line with the exit statuses of ``ExitStatus``: argument-parser's own usage
/// errors (its 64) become 2, and every error is one line on stderr.
@main
enum Main {
    static func main() async {
        // `fleet …` is another executable (FleetLauncher): handed over before anything else.
        if CommandLine.arguments.dropFirst().first == "fleet" {
            let failure = FleetLauncher.exec(Array(CommandLine.arguments.dropFirst(2)))
            Output.error(failure.message)
            exitWithoutFlushing(failure.status)
        }
        let arguments = Verbosity.expandingShortName(in: Array(CommandLine.arguments.dropFirst()))
        let verbose = Verbosity.isRequested(in: arguments)
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, verbose: verbose) }
        do {
            if let invalid = RawArguments.invalidUTF8() { throw invalid }
            if let unknownCommand = CommandNames.check(arguments) { throw unknownCommand }
            // A command that reads or writes once follows no file: no inotify watch to set up.
            if OneShotCommand.names.contains(arguments.first { !$0.hasPrefix("-") } ?? "") { SuiteStore.openWithoutWatching() }
            // A plain `get` or `set` line without argument-parser's reflection (PlainCommandLine);
            // else the command alone when its words lead the line (DirectCommandLine); else the
            // whole tree.
            if let plain = PlainCommandLine.line(arguments) {
                try plain.run()
                return
            }
            let marked = NegativeNumbers.mark(arguments)
            var command: any ParsableCommand
            if let direct = DirectCommandLine.command(marked) {
                command = direct
            } else {
                command = try RizqPrefsCommand.parseAsRoot(marked)
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            Output.error(error.message)
            exitWithoutFlushing(error.status)
        } catch let error as ExitCode {
            exit(error.rawValue)
        } catch {
            let code = RizqPrefsCommand.exitCode(for: error)
            if code.isSuccess {
                // --help, --version, --generate-completion-script: printed through Output, so
                // that a full stdout fails them too (argument-parser's print would not tell).
                let text = RizqPrefsCommand.fullMessage(for: error)
                if !text.isEmpty { Output.line(text) }
                exit(0)
            }
            Output.error(usageLine(for: error, arguments: Array(CommandLine.arguments.dropFirst())))
            exitWithoutFlushing(.usage)
        }
    }

    /// Ends a failed command without the library's exit-time flush: a write that failed was
    /// reported once, and must neither be reported again nor happen after the user was told it
    /// did not.
    private static func exitWithoutFlushing(_ status: ExitStatus) -> Never {
        fflush(nil)
        _exit(status.rawValue)
    }

    /// argument-parser's message, with where to find help, on one line.
    private static func usageLine(for error: any Error, arguments: [String]) -> String {
        var message = RizqPrefsCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid command line"
        // argument-parser's own guess ("Unknown option '--typ'. Did you mean '--type'?") in our form.
        if let guess = message.range(of: ". Did you mean ") {
            message.replaceSubrange(guess, with: " (did you mean ")
            message += ")"
        } else if let quoted = message.firstRange(of: "Unknown option '"), let end = message[quoted.upperBound...].firstIndex(of: "'"),
            let hint = CommandNames.hint(forUnknownOption: String(message[quoted.upperBound..<end]), in: arguments) {
            // "Unknown option '--float'": name the option meant (--double), as for an unknown command.
            message += " (\(hint))"
        }
        let full = RizqPrefsCommand.fullMessage(for: error)
        let hint = full.split(separator: "\n").first { $0.hasPrefix("  See '") }?.trimmingCharacters(in: .whitespaces)
        let line = message.replacingOccurrences(of: "Error: ", with: "") + "; " + (hint.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "see 'rizq-prefs --help'")
        return NegativeNumbers.unmarkedMessage(line)
    }
}
#endif
