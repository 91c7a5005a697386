#if CLI
import RizqCommandLine
import RizqPrefs

/// Runs the command line (``CommandLineMain``): exit statuses as ``ExitStatus``, every error
/// one line on stderr.
@main
enum Main {
    static func main() async {
        // `fleet …`, `secret …`, `import-app …` and `doctor` are other executables
        // (CommandLauncher): handed over before anything else.
        // (Swift's `CommandLine.arguments` has already repaired bytes that are not UTF-8: they are
        // refused here, before the words are handed on.)
        // A completion request for one of them goes the same way (ShellCompletion).
        if let handover = CommandLauncher.completionHandover(for: Array(CommandLine.arguments.dropFirst())) {
            CommandLineMain.exitWithoutFlushing(CommandLauncher.exec(handover.command, handover.arguments).status)
        }
        if let handover = CommandLauncher.handover(for: Array(CommandLine.arguments.dropFirst())) {
            let failure = RawArguments.invalidUTF8() ?? CommandLauncher.exec(handover.command, handover.arguments)
            Output.error(failure.message)
            CommandLineMain.exitWithoutFlushing(failure.status)
        }
        ShellCompletion.answerShellRequests(root: RizqPrefsCommand.self)
        await CommandLineMain.run(root: RizqPrefsCommand.self) { arguments in
            // A command that reads or writes once follows no file: no inotify watch to set up.
            if OneShotCommand.names.contains(arguments.first { !$0.hasPrefix("-") } ?? "") { SuiteStore.openWithoutWatching() }
            // A plain `get` or `set` line without argument-parser's reflection (PlainCommandLine).
            guard let plain = PlainCommandLine.line(arguments) else { return false }
            try plain.run()
            return true
        }
    }
}
#endif
