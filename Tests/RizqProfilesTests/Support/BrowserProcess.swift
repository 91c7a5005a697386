import Foundation
import XCTest

/// A real browser started by a test (RealChromiumTests, RealFirefoxTests), synchronised on what
/// it prints and on its exit, never on time.
///
/// Its stdout and stderr are read all the time by two threads, so that a chatty browser never
/// blocks on a full pipe (which would stall it, and its shutdown, under a slow machine); the test
/// waits on a condition that those threads and the exit signal. The only time limit is a
/// generous guard against a browser that hangs: it is then killed and the test fails, saying
/// what the browser printed last, instead of hanging the suite.
final class BrowserProcess: @unchecked Sendable {
    /// Where the wait for a line looks.
    enum Stream {
        case stdout, stderr
    }

    /// The guard against a hung browser: far beyond what a loaded machine needs.
    static let hangLimit: TimeInterval = 600

    let name: String
    private let process = Process()
    private let condition = NSCondition()
    private var stdoutText = Data()
    private var stderrText = Data()
    private var openStreams = 2
    private var exited = false

    /// Starts `executable` with `arguments` and `environment`, stdin empty.
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        name = (executable as NSString).lastPathComponent
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { [weak self] _ in self?.markExited() }
        try process.run()
        for (pipe, stream) in [(output, Stream.stdout), (errors, .stderr)] {
            let thread = Thread { [self] in drain(pipe.fileHandleForReading, into: stream) }
            thread.start()
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private func markExited() {
        condition.lock()
        exited = true
        condition.broadcast()
        condition.unlock()
    }

    private func drain(_ handle: FileHandle, into stream: Stream) {
        while true {
            let chunk = handle.availableData
            condition.lock()
            if chunk.isEmpty {
                openStreams -= 1
            } else if stream == .stdout {
                stdoutText.append(chunk)
            } else {
                stderrText.append(chunk)
            }
            condition.broadcast()
            condition.unlock()
            if chunk.isEmpty { return }
        }
    }

    /// What the browser printed so far on `stream`.
    func text(_ stream: Stream) -> String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stream == .stdout ? stdoutText : stderrText, as: UTF8.self)
    }

    /// Waits until `stream` holds a whole line containing `marker`, and returns that line; `nil`
    /// (and a test failure) when the browser ended first or hung.
    func waitForLine(containing marker: String, on stream: Stream, file: StaticString = #filePath, line: UInt = #line) -> String? {
        let deadline = Date(timeIntervalSinceNow: Self.hangLimit)
        condition.lock()
        while true {
            let text = String(decoding: stream == .stdout ? stdoutText : stderrText, as: UTF8.self)
            if let found = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.contains(marker) }) {
                condition.unlock()
                return String(found)
            }
            if exited && openStreams == 0 {
                condition.unlock()
                XCTFail("\(name) ended before printing '\(marker)'; it printed: \(tail())", file: file, line: line)
                return nil
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                kill(process.processIdentifier, SIGKILL)
                XCTFail("\(name) hung: no '\(marker)' in \(Int(Self.hangLimit)) s; it printed: \(tail())", file: file, line: line)
                return nil
            }
        }
    }

    /// Waits until the browser has ended by itself and closed its output; returns its exit
    /// status, or `nil` (and a test failure) when it hung and was killed.
    @discardableResult
    func waitUntilExit(file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        guard waitForEnd() else {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("\(name) hung: it did not end in \(Int(Self.hangLimit)) s; it printed: \(tail())", file: file, line: line)
            return nil
        }
        return process.terminationStatus
    }

    /// Asks the browser to quit (SIGTERM) and waits for it; kills it if it hangs.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if !waitForEnd() { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private func waitForEnd() -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.hangLimit)
        condition.lock()
        defer { condition.unlock() }
        while !(exited && openStreams == 0) {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// The last lines of stderr then stdout, for a failure message (the test pages hold no secrets).
    private func tail() -> String {
        condition.lock()
        defer { condition.unlock() }
        let lines = (String(decoding: stderrText, as: UTF8.self) + String(decoding: stdoutText, as: UTF8.self)).split(separator: "\n")
        return lines.suffix(8).joined(separator: " | ")
    }
}
