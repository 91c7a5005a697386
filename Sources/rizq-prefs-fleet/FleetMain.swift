#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import Logging

/// `rizq-prefs-fleet`: the `rizq-prefs fleet …` commands, in an executable of their own so that
/// `rizq-prefs` itself never loads NIO or postgres-nio (it executes this one, as git runs its
/// subcommands). Exit statuses as ``ExitStatus``; every error is one line on stderr.
@main
enum FleetMain {
    static func main() async {
        // A shell's completion request, which rizq-prefs hands over with the words after `fleet`.
        ShellCompletion.answerShellRequests(root: FleetCommand.self)
        var arguments = Verbosity.expandingShortName(in: Array(CommandLine.arguments.dropFirst()))
        // Run directly as `rizq-prefs-fleet fleet get …` (what rizq-prefs does not do, but a
        // user copying a command line might): the word is the command's own name.
        if arguments.first == "fleet" { arguments.removeFirst() }
        let verbose = Verbosity.isRequested(in: arguments)
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, verbose: verbose) }
        do {
            var command = try FleetCommand.parseAsRoot(NegativeNumbers.mark(arguments))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            FleetSession.finish()
        } catch let error as CLIError {
            FleetSession.finish()
            Output.error(error.message)
            fflush(nil)
            _exit(error.status.rawValue)
        } catch let error as ExitCode {
            FleetSession.finish()
            exit(error.rawValue)
        } catch {
            let code = FleetCommand.exitCode(for: error)
            if code.isSuccess { FleetCommand.exit(withError: error) }
            let message = FleetCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid command line"
            Output.error(NegativeNumbers.unmarkedMessage(message.replacingOccurrences(of: "Error: ", with: "")) + "; see 'rizq-prefs fleet --help'")
            fflush(nil)
            _exit(ExitStatus.usage.rawValue)
        }
    }
}
#endif
