import Foundation
import Logging
import Synchronization
import XCTest
@testable import RizqSecrets

/// Log lines recorded for the no-leak tests (and passed on to stderr).
final class RecordingLogHandler: LogHandler, @unchecked Sendable {
    static let lines = Mutex<[String]>([])
    static let installed: Bool = {
        LoggingSystem.bootstrap { label in RecordingLogHandler(label: label) }
        return true
    }()

    let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(label: String) { self.label = label }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = "\(event.level) \(label): \(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })"
        Self.lines.withLock { $0.append(line) }
    }
}

/// The real Secret Service that scripts/test starts; a clear failure when it is absent.
func requireSecretService(file: StaticString = #filePath, line: UInt = #line) throws {
    let environment = ProcessInfo.processInfo.environment
    guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
        XCTFail("no D-Bus session: run the secret tests through scripts/test (or scripts/with-keyring swift test)", file: file, line: line)
        throw XCTSkip("no session bus")
    }
}

/// A service name no other test uses.
func uniqueService(_ name: String = #function) -> String {
    "org.rizq.tests.\(name.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
}

/// Runs a command; returns its exit status and output. `input` goes to its stdin.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
    try inp.fileHandleForWriting.close()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, stdout, stderr)
}

var productsFolder: String {
    let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: testBinary).deletingLastPathComponent().path
}
