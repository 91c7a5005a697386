#if CLI
import RizqCommandLine

/// `rizq-prefs-fleet`: the `rizq-prefs fleet …` commands, in an executable of their own so that
/// `rizq-prefs` itself never loads NIO or postgres-nio (it executes this one, as git runs its
/// subcommands). The one main of the command line (``CommandLineMain``): exit statuses as
/// ``ExitStatus``, every error one line on stderr; run by hand as `rizq-prefs-fleet fleet get …`,
/// the word `fleet` is the command's own name. The suites a command opened are settled when it
/// ends, whatever its outcome.
@main
enum FleetMain {
    static func main() async {
        // A shell's completion request, which rizq-prefs hands over with the words after `fleet`.
        ShellCompletion.answerShellRequests(root: FleetCommand.self)
        await CommandLineMain.run(root: FleetCommand.self, ownWord: "fleet", atEnd: FleetSession.finish)
    }
}
#endif
