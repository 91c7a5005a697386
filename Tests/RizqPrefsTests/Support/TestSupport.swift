import Foundation
@_exported import RizqTestSupport
import XCTest
@testable import RizqPrefs

/// A fresh folder for one test's suite files; never the user's real ones.
final class TemporaryRoot {
    let path: String

    init() {
        let template = NSTemporaryDirectory() + "rizq-prefs-test.XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        path = made.map { String(cString: $0) } ?? (NSTemporaryDirectory() + "rizq-prefs-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func store(_ suite: String = "group.com.rizq.test", app: String = "tests") throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: app, root: path)
    }

    func filePath(_ suite: String = "group.com.rizq.test", app: String = "tests") -> String {
        suite.hasPrefix("group.") ? "\(path)/groups/\(suite).json" : "\(path)/apps/\(app)/\(suite).json"
    }

    func fileBytes(_ suite: String = "group.com.rizq.test") -> Data? {
        FileManager.default.contents(atPath: filePath(suite))
    }

    /// The suite file parsed with Foundation's own reader, as an independent check of the format.
    func fileObject(_ suite: String = "group.com.rizq.test") throws -> [String: Any] {
        let data = try XCTUnwrap(fileBytes(suite), "suite file missing")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Makes every write of the group suite fail, even for root: a folder where its lock file
    /// goes, so that the lock cannot be taken. ``clearLockObstruction()`` undoes it.
    func obstructLocking() throws {
        try? FileManager.default.removeItem(atPath: lockPath)
        try FileManager.default.createDirectory(atPath: lockPath + "/x", withIntermediateDirectories: true)
    }

    func clearLockObstruction() throws {
        try FileManager.default.removeItem(atPath: lockPath)
    }

    private var lockPath: String { path + "/groups/.group.com.rizq.test.lock" }
}

/// Runs the test child (Tests/Support/PrefsChild) as a real second process.
enum Child {
    static var executable: String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        // Inside an .xctest bundle on some platforms: climb to the products folder.
        while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("rizq-prefs-test-child").path
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Lines of stdout, empty ones included, without the final newline's empty remainder.
        var lines: [String] {
            var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    @discardableResult
    static func run(_ root: TemporaryRoot, _ suite: String, _ arguments: [String], wrapper: [String] = [], environment: [String: String] = [:]) throws -> Output {
        let process = start(root, suite, arguments, wrapper: wrapper, environment: environment)
        let out = process.standardOutput as! Pipe
        let err = process.standardError as! Pipe
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads `process`'s standard output until it has printed the line `line` (or closed its
    /// output): a child's readiness signal. `previous` is what earlier calls returned; the
    /// result is all of it and what was read since.
    static func read(_ process: Process, until line: String, after previous: String = "") -> String {
        guard let out = process.standardOutput as? Pipe else { return previous }
        var text = previous
        while !text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains(Substring(line)) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// `wrapper` is a command that runs the child (`scripts/seccomp-deny …`, `runuser -u nobody --`);
    /// `environment` is added to the test's own.
    static func start(_ root: TemporaryRoot, _ suite: String, _ arguments: [String], wrapper: [String] = [], environment: [String: String] = [:]) -> Process {
        let process = Process()
        if let first = wrapper.first {
            // A wrapper may run the child as another user: a copy it can reach if need be.
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(wrapper.dropFirst()) + [(try? reachableByEveryUser(executable)) ?? executable, root.path, suite] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [root.path, suite] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        return process
    }
}
