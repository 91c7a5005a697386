#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `rizq-prefs fleet …`: runs `rizq-prefs-fleet` in this process's place, as git runs its
/// subcommands. The fleet commands link postgres-nio and NIO; keeping them in an executable of
/// their own keeps `rizq-prefs get` from loading either (issue 28 times its start-up).
///
/// The executable is looked for next to this one (an install, a build folder), then on `PATH`.
enum FleetLauncher {
    /// The executable's name.
    static let executableName = "rizq-prefs-fleet"

    /// Replaces this process with `rizq-prefs-fleet ARGUMENTS`; returns only the error to
    /// report when it cannot.
    static func exec(_ arguments: [String]) -> CLIError {
        guard let path = locate() else {
            return CLIError(.usage, "the fleet commands are in '\(executableName)', which is neither next to rizq-prefs (\(ownFolder ?? "?")) nor on PATH; install it with scripts/install (or the .deb), or build it with 'swift build --product \(executableName)'")
        }
        let argv = [executableName] + arguments
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

    private static func locate() -> String? {
        if let folder = ownFolder {
            let beside = folder + "/" + executableName
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + executableName
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// `rizq-prefs fleet`, as `--help` lists it. Never parsed: ``Main`` hands every `fleet …`
/// command line to ``FleetLauncher`` first.
struct FleetStubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Read and change fleet suites (settings shared by many hosts through PostgreSQL): get, set, delete, list, watch, export, import. See 'rizq-prefs fleet --help'.")

    @Argument(parsing: .captureForPassthrough)
    var arguments: [String] = []

    func run() throws {
        throw FleetLauncher.exec(arguments)
    }
}
#endif
