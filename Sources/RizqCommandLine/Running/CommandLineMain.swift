#if CLI
import ArgumentParser
import Foundation
import Logging
import RizqPrefs

/// The one `main` of the three executables of the command line (`rizq-prefs`,
/// `rizq-prefs-secrets` and `rizq-prefs-fleet`): the debug log set up from `--verbose`, the
/// command line checked (its bytes, then its command words), the command parsed under the
/// executable's root and run, and every failure reported as one line on stderr with the exit
/// statuses of ``ExitStatus`` — argument-parser's own usage errors (its 64) become 2.
package enum CommandLineMain {
    /// Runs the command `CommandLine.arguments` name under `root`, and exits when it fails.
    ///
    /// - Parameters:
    ///   - ownWord: the word an executable run by hand may be given first, as the user would type
    ///     it after `rizq-prefs` (`fleet`: `rizq-prefs-fleet fleet get …`); it is dropped.
    ///   - plain: sees the line first (after the checks; `-v` spelt `--verbose`) and returns
    ///     `true` when it ran the command itself: `rizq-prefs` reads its plain `get` and `set`
    ///     lines there, without argument-parser.
    ///   - atEnd: runs once the command is done, whether it succeeded or failed, before the
    ///     process exits (`rizq-prefs-fleet`: its suites' caches written, their engines closed).
    ///
    /// On the main actor, as `main` itself: the command runs on the main thread, where the
    /// commands that wait for signals or follow files (`watch`) and the tools that trace a
    /// command (`strace -f`) expect it — a nonisolated `async` function would run it on a thread
    /// of the concurrency pool instead.
    @MainActor
    package static func run(
        root: any ParsableCommand.Type, ownWord: String? = nil, plain: ([String]) throws -> Bool = { _ in false }, atEnd: () -> Void = {}
    ) async {
        var typed = Array(CommandLine.arguments.dropFirst())
        if let ownWord, typed.first == ownWord { typed.removeFirst() }
        let arguments = Verbosity.expandingShortName(in: typed)
        let verbose = Verbosity.isRequested(in: arguments)
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, verbose: verbose) }
        do {
            if let invalid = RawArguments.invalidUTF8() { throw invalid }
            if let unknownCommand = CommandNames.check(arguments, root: root) { throw unknownCommand }
            if try plain(arguments) { return atEnd() }
            // The command alone when its words lead the line (DirectCommandLine); else the whole tree.
            let marked = NegativeNumbers.mark(arguments)
            var command: any ParsableCommand
            if let direct = DirectCommandLine.command(marked, root: root) {
                command = direct
            } else {
                command = try root.parseAsRoot(marked)
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            atEnd()
        } catch let error as CLIError {
            atEnd()
            Output.error(error.message)
            exitWithoutFlushing(error.status)
        } catch let error as ExitCode {
            atEnd()
            exit(error.rawValue)
        } catch {
            atEnd()
            let code = root.exitCode(for: error)
            if code.isSuccess {
                // --help, --version, --generate-completion-script: printed through Output, so
                // that a full stdout fails them too (argument-parser's print would not tell).
                let text = root.fullMessage(for: error)
                if !text.isEmpty { Output.line(text) }
                exit(0)
            }
            Output.error(usageLine(for: error, arguments: typed, root: root))
            exitWithoutFlushing(.usage)
        }
    }

    /// Ends a failed command without the library's exit-time flush: a write that failed was
    /// reported once, and must neither be reported again nor happen after the user was told it
    /// did not.
    package static func exitWithoutFlushing(_ status: ExitStatus) -> Never {
        fflush(nil)
        _exit(status.rawValue)
    }

    /// argument-parser's message, with where to find help, on one line.
    private static func usageLine(for error: any Error, arguments: [String], root: any ParsableCommand.Type) -> String {
        var message = root.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid command line"
        // argument-parser's own guess ("Unknown option '--typ'. Did you mean '--type'?") in our form.
        if let guess = message.range(of: ". Did you mean ") {
            message.replaceSubrange(guess, with: " (did you mean ")
            message += ")"
        } else if let quoted = message.firstRange(of: "Unknown option '"), let end = message[quoted.upperBound...].firstIndex(of: "'"),
            let hint = CommandNames.hint(forUnknownOption: String(message[quoted.upperBound..<end]), in: arguments, root: root) {
            // "Unknown option '--float'": name the option meant (--double), as for an unknown command.
            message += " (\(hint))"
        }
        let full = root.fullMessage(for: error)
        let hint = full.split(separator: "\n").first { $0.hasPrefix("  See '") }?.trimmingCharacters(in: .whitespaces)
        let line = message.replacingOccurrences(of: "Error: ", with: "") + "; " + (hint.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "see '\(root.configuration.commandName ?? "rizq-prefs") --help'")
        return NegativeNumbers.unmarkedMessage(line)
    }
}
#endif
