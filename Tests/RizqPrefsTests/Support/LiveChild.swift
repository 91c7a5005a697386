import Foundation
import Synchronization
import XCTest

/// A test child (``Child``) that runs while the test talks to it: lines go to its stdin, and each
/// line it prints reaches `onLine` as it is printed (on a reader thread of its own), so that a
/// test can act on what the child acknowledged — and wait for a line instead of sleeping.
final class LiveChild: Sendable {
    let process: Process
    private let input: Pipe
    private let output = Output()
    private let arrived = Condition()
    private let finished = DispatchSemaphore(value: 0)

    /// What the reader threads collect.
    private final class Output: Sendable {
        let lines = Mutex<[String]>([])
        let errorText = Mutex<String>("")
    }

    /// Starts `rizq-prefs-test-child ROOT SUITE ARGUMENTS…`; `onLine` sees every line of stdout.
    init(
        _ root: TemporaryRoot, _ suite: String, _ arguments: [String], wrapper: [String] = [], environment: [String: String] = [:],
        onLine: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        process = Child.start(root, suite, arguments, wrapper: wrapper, environment: environment)
        input = Pipe()
        process.standardInput = input
        try process.run()
        let out = (process.standardOutput as! Pipe).fileHandleForReading
        let err = (process.standardError as! Pipe).fileHandleForReading
        let output = self.output
        let arrived = self.arrived
        let finished = self.finished
        Thread {
            var pending = Data()
            while true {
                let chunk = out.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    onLine(line)
                    output.lines.withLock { $0.append(line) }
                    arrived.signal()
                }
            }
            finished.signal()
            arrived.signal()
        }.start()
        Thread {
            let data = err.readDataToEndOfFile()
            output.errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
        }.start()
    }

    /// Every line printed so far.
    var printed: [String] { output.lines.withLock { $0 } }

    /// What the child wrote on stderr (complete once it has exited).
    var stderr: String { output.errorText.withLock { $0 } }

    /// Sends one line to the child's stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes the child's stdin.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until the child has printed a line that satisfies `matches` (or has closed its
    /// output); returns the line. The time-out only guards against a hang.
    @discardableResult
    func waitForLine(timeout: TimeInterval = 120, _ matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = printed.first(where: matches) { return line }
            if finished.wait(timeout: .now()) == .success {
                finished.signal()
                return printed.first(where: matches)
            }
            arrived.wait(until: deadline)
        }
        return nil
    }

    /// Waits for the child to exit; its status.
    @discardableResult
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        _ = finished.wait(timeout: .now() + 60)
        finished.signal()
        return process.terminationStatus
    }

    /// Ends the child with SIGKILL, as a crash would.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }
}

/// Wakes a waiter when something arrived; a waiter re-checks its condition after each wake.
final class Condition: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func signal() { semaphore.signal() }

    func wait(until deadline: Date) {
        _ = semaphore.wait(timeout: .now() + min(max(deadline.timeIntervalSinceNow, 0), 1))
    }
}
