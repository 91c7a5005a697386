#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a ``HandedOverCommand`` (`fleet`, `secret`, `import-app`, `doctor`) in this process's
/// place: its executable, looked for next to this one (an install, a build folder), then on
/// `PATH`.
enum CommandLauncher {
    /// The executable and the arguments to give it, when `arguments` (without the program's
    /// name) start with a handed-over command's name — or with `help` and one (`help secret`
    /// is `secret --help`).
    static func handover(for arguments: [String]) -> (command: HandedOverCommand, arguments: [String])? {
        var words = arguments
        if words.first == "help", words.count > 1 {
            words = Array(words.dropFirst()) + ["--help"]
        }
        guard let name = words.first, let command = HandedOverCommand.all.first(where: { $0.isNamed(name) }) else { return nil }
        return (command, command.keepsName ? words : Array(words.dropFirst()))
    }

    /// The executable and the arguments to give it, when `arguments` are a shell's completion
    /// request (``ShellCompletion/requestWord`` and the words typed) whose first word, typed
    /// whole, is a handed-over command's name: that executable completes its own words. (A
    /// failure to run it completes nothing: the shell shows no candidates.)
    static func completionHandover(for arguments: [String]) -> (command: HandedOverCommand, arguments: [String])? {
        guard arguments.first == ShellCompletion.requestWord, arguments.count > 2,
            let handover = handover(for: Array(arguments.dropFirst())), arguments[1] != "help"
        else { return nil }
        return (handover.command, [ShellCompletion.requestWord] + handover.arguments)
    }

    /// Replaces this process with `command`'s executable, given `arguments`; returns only the
    /// error to report when it cannot.
    static func exec(_ command: HandedOverCommand, _ arguments: [String]) -> CLIError {
        let executable = command.executable
        guard let path = locate(executable) else {
            return CLIError(.usage, "the \(HandedOverCommand.names(runBy: executable)) commands are in '\(executable)', which is neither next to rizq-prefs (\(ownFolder ?? "?")) nor on PATH; install it with scripts/install (or the .deb), or build it with 'swift build --product \(executable)'")
        }
        let argv = [executable] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(path, cArguments)
        let failure = String(cString: strerror(errno))
        for argument in cArguments { free(argument) }
        return CLIError(.usage, "cannot run \(path): \(failure)")
    }

    /// The folder of the running executable.
    private static var ownFolder: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return (executable as NSString).deletingLastPathComponent
    }

    private static func locate(_ executable: String) -> String? {
        if let folder = ownFolder {
            let beside = folder + "/" + executable
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + executable
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// A handed-over command as `rizq-prefs --help` lists it. Run only when options come before its
/// name (`rizq-prefs -v secret get`): ``Main`` hands every line that starts with its name to
/// ``CommandLauncher`` before parsing.
protocol HandedOverStub: ParsableCommand {
    /// The command it stands for.
    static var handedOver: HandedOverCommand { get }
    /// Its words, as typed after its name.
    var arguments: [String] { get }
}

extension HandedOverStub {
    /// The configuration `--help` shows: the command's name and abstract.
    static var stubConfiguration: CommandConfiguration {
        CommandConfiguration(commandName: handedOver.name, abstract: handedOver.abstract, aliases: handedOver.aliases)
    }

    func run() throws {
        // An executable that keeps the command's name reads the whole line (its root takes
        // `--verbose` anywhere); the fleet executable takes the words after its name.
        let line = Self.handedOver.keepsName ? Array(CommandLine.arguments.dropFirst()) : arguments
        throw CommandLauncher.exec(Self.handedOver, line)
    }
}

/// `rizq-prefs fleet` (``HandedOverCommand/fleet``).
struct FleetStubCommand: HandedOverStub {
    static let configuration = stubConfiguration
    static let handedOver = HandedOverCommand.fleet
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

/// `rizq-prefs secret` (``HandedOverCommand/secret``).
struct SecretStubCommand: HandedOverStub {
    static let configuration = stubConfiguration
    static let handedOver = HandedOverCommand.secret
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

/// `rizq-prefs import-app` (``HandedOverCommand/importApp``).
struct ImportAppStubCommand: HandedOverStub {
    static let configuration = stubConfiguration
    static let handedOver = HandedOverCommand.importApp
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

/// `rizq-prefs doctor` (``HandedOverCommand/doctor``).
struct DoctorStubCommand: HandedOverStub {
    static let configuration = stubConfiguration
    static let handedOver = HandedOverCommand.doctor
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
#endif
