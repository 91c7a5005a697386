import Foundation
import Logging
import Synchronization
import XCTest
@_exported import RizqTestSupport
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


/// A service name no other test uses.
func uniqueService(_ name: String = #function) -> String {
    "org.rizq.tests.\(name.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
}




/// Runs a command that must succeed; its standard output.
@discardableResult
func checked(_ executable: String, _ arguments: [String], input: String? = nil) throws -> String {
    let result = try runCommand(executable, arguments, input: input)
    XCTAssertEqual(result.status, 0, "\(executable) \(arguments.first ?? ""): \(result.stderr)")
    return result.stdout
}

/// The D-Bus paths of the unlocked items with these attributes, as the service lists them.
func itemPaths(service: String, account: String) throws -> [String] {
    let reply = try checked("/usr/bin/gdbus", [
        "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
        "--method", "org.freedesktop.Secret.Service.SearchItems", "{'service': '\(service)', 'account': '\(account)'}",
    ])
    // "([objectpath '/org/…/1', '/org/…/2'], @ao [])": the first list is the unlocked items.
    let unlocked = reply.split(separator: "]").first ?? ""
    return unlocked.split(separator: "'").filter { $0.hasPrefix("/") }.map(String.init)
}
