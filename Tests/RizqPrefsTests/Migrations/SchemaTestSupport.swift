import Foundation
import RizqTestSupport
import XCTest

/// Runs the schema test child (Tests/Support/SchemaChild) as a real second process.
enum SchemaChild {
    static var executable: String {
        URL(fileURLWithPath: Child.executable).deletingLastPathComponent().appendingPathComponent("rizq-schema-test-child").path
    }

    /// Starts the child with its stdin, stdout and stderr on pipes (not yet running).
    static func start(_ root: TemporaryRoot, _ suite: String, _ arguments: [String]) -> Process {
        let process = Child.start(root, suite, arguments)
        process.executableURL = URL(fileURLWithPath: executable)
        process.standardInput = Pipe()
        return process
    }

    /// Runs the child to the end, with nothing on its stdin.
    static func run(_ root: TemporaryRoot, _ suite: String, _ arguments: [String]) throws -> Child.Output {
        let result = try runCommand(executable, [root.path, suite] + arguments)
        return Child.Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Sends one line to the child's stdin.
    static func send(_ process: Process, _ line: String = "go") {
        (process.standardInput as? Pipe)?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }
}
