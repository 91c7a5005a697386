import Foundation
import RizqTestSupport
import XCTest

/// Two real Syncthing instances, A and B, sharing one folder on loopback: a private pair per
/// test (`scripts/with-syncthing --serve`), so that a test may pause or stop them. Stopped and
/// removed when the pair goes (its stdin closed: the script cleans up).
final class SyncthingPair: @unchecked Sendable {
    let environment: [String: String]
    private let process: Process
    private let input: Pipe

    var folderA: String { environment["RIZQ_SYNC_A_FOLDER"] ?? "" }
    var folderB: String { environment["RIZQ_SYNC_B_FOLDER"] ?? "" }
    var homeA: String { environment["RIZQ_SYNC_A_HOME"] ?? "" }
    var homeB: String { environment["RIZQ_SYNC_B_HOME"] ?? "" }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(file: String = #filePath) throws {
        let script = repositoryRoot(file).appendingPathComponent("scripts/with-syncthing").path
        guard FileManager.default.fileExists(atPath: "/usr/bin/syncthing") else {
            throw Failure(description: "syncthing is not installed: scripts/install-deps installs it (scripts/test runs it)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["--serve"]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // NAME=VALUE lines, then READY (the script's own waits are bounded).
        var environment: [String: String] = [:]
        var pending = Data()
        var ready = false
        let reader = output.fileHandleForReading
        while !ready {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending += chunk
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[(newline + 1)...])
                if line == "READY" {
                    ready = true
                } else if let equals = line.firstIndex(of: "=") {
                    environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
            }
        }
        guard ready else {
            process.waitUntilExit()
            throw Failure(description: "scripts/with-syncthing --serve did not start (exit \(process.terminationStatus))")
        }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        self.environment = merged
    }

    deinit { stop() }

    /// Stops both instances and removes their folders.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
    }

    /// Runs `scripts/syncthing-ctl` with `arguments`; fails the test when it fails.
    func ctl(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) {
        guard let path = environment["RIZQ_SYNC_CTL"] else { return XCTFail("no RIZQ_SYNC_CTL", file: file, line: line) }
        do {
            let result = try runCommand(path, arguments, environment: environment)
            XCTAssertEqual(result.status, 0, "syncthing-ctl \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        } catch {
            XCTFail("syncthing-ctl \(arguments.joined(separator: " ")): \(error)", file: file, line: line)
        }
    }

    /// The conflict copies in both folders.
    var conflictCopies: [String] {
        [folderA, folderB].flatMap { folder in
            (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.contains(".sync-conflict-") }
        }
    }
}

/// Every value a suite's key takes, as they come (its change stream), for a test to wait on.
final class ValueLog: @unchecked Sendable {
    private let lock = NSCondition()
    private var values: [(value: PrefValueBox, at: Date)] = []
    private var task: Task<Void, Never>?

    struct PrefValueBox: Equatable, @unchecked Sendable {
        let text: String?
    }

    init(_ stream: AsyncStream<String?>) {
        task = Task.detached { [weak self] in
            for await value in stream { self?.append(PrefValueBox(text: value)) }
        }
    }

    deinit { task?.cancel() }

    private func append(_ value: PrefValueBox) {
        lock.lock()
        values.append((value, Date()))
        lock.broadcast()
        lock.unlock()
    }

    /// When `text` arrived (the first time), waiting up to `timeout`; `nil` if it has not.
    func arrival(of text: String?, timeout: TimeInterval = 60) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let found = values.first(where: { $0.value.text == text }) { return found.at }
            if !lock.wait(until: deadline) { return values.first(where: { $0.value.text == text })?.at }
        }
    }
}
