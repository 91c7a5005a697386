import Foundation
import Synchronization
import XCTest
@_exported import RizqTestSupport

/// What a finished `rizq-prefs` run printed, and its exit status.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes: Data
}

/// A temporary root of suite files and an app id for one test, and a way to run the real binary
/// against them.
final class CLIHarness {
    let root: String
    let appID = "com.rizq.clitest"
    var environment: [String: String]

    init() throws {
        root = NSTemporaryDirectory() + "rizq-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root
        environment["RIZQ_PREFS_APP_ID"] = appID
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The built `rizq-prefs`, beside the test bundle.
    static var binary: String { executable("rizq-prefs") }

    /// A built executable of the package (`rizq-prefs-secrets`), beside the test bundle.
    static func executable(_ name: String) -> String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent().path + "/" + name
    }

    /// The standard suite's file.
    var standardPath: String { root + "/apps/\(appID)/\(appID).json" }

    /// The file of an app-group suite.
    func groupPath(_ name: String) -> String { root + "/groups/\(name).json" }

    /// Runs `rizq-prefs` with `arguments` and `stdin`, and waits for it.
    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String?] = [:]) throws -> CLIResult {
        var environment = self.environment
        for (name, value) in extra { environment[name] = value }
        let result = try runProcess(Self.binary, arguments, input: stdin, environment: environment)
        return CLIResult(
            status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self),
            stderr: String(decoding: result.stderr, as: UTF8.self), stdoutBytes: result.stdout)
    }

    /// Runs `rizq-prefs`, with the text `stdin`.
    @discardableResult
    func run(_ arguments: String..., stdin: String? = nil) throws -> CLIResult {
        try run(arguments, stdin: stdin.map { Data($0.utf8) })
    }

    /// Starts `rizq-prefs` without waiting, for commands that run until stopped.
    func start(_ arguments: [String]) throws -> RunningCLI {
        try RunningCLI(arguments: arguments, environment: environment)
    }

    /// The bytes of a file, or `nil` when there is none.
    func bytes(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    /// Every file under the root whose bytes contain `needle`, relative to the root.
    func filesContaining(_ needle: String) -> [String] {
        RizqTestSupport.filesContaining(needle, under: root)
    }
}

/// A `rizq-prefs` process that keeps running (`watch`), with its output collected as it comes.
final class RunningCLI: @unchecked Sendable {
    let process = Process()
    private let output = Mutex((stdout: "", stderr: ""))

    init(arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.output.withLock { $0.stdout += text }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.output.withLock { $0.stderr += text }
        }
        try process.run()
    }

    var stdout: String { output.withLock { $0.stdout } }
    var stderr: String { output.withLock { $0.stderr } }

    /// Waits until `condition` holds for the output so far (``eventually``); `false` if it does
    /// not within `seconds`, a bound against a hang.
    @discardableResult
    func wait(seconds: Double = 30, until condition: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        eventually(timeout: seconds) {
            let (out, err) = output.withLock { ($0.stdout, $0.stderr) }
            return condition(out, err)
        }
    }

    /// Sends `signal` and waits for the exit status.
    func stop(with signal: Int32 = SIGINT) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }
}
