import Foundation
import RizqTestSupport
import Synchronization

/// A `rizq-sync-test-child` (maybe under a wrapper such as `scripts/with-clock-offset`) that runs
/// while the test talks to it: lines to its stdin, and its stdout lines waited for in order — a
/// wait looks only at lines printed since the last line a wait returned.
final class SyncChild: Sendable {
    private let process: Process
    private let input: Pipe
    /// What the reader thread collects.
    private final class Output: Sendable {
        let lines = Mutex<[String]>([])
        let finished = Mutex(false)
        let arrived = DispatchSemaphore(value: 0)
    }

    private let output = Output()
    private let cursor = Mutex(0)

    /// Starts `command[0]` with the other elements as its arguments.
    init(_ command: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        input = Pipe()
        let pipe = Pipe()
        process.standardInput = input
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        try process.run()
        let reader = pipe.fileHandleForReading
        let output = self.output
        Thread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    output.lines.withLock { $0.append(line) }
                    output.arrived.signal()
                }
            }
            output.finished.withLock { $0 = true }
            output.arrived.signal()
        }.start()
    }

    /// Sends one line.
    func send(_ line: String) {
        // A child that died must fail its test, not end the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line (after those earlier waits returned) that satisfies `matches`; `nil` when
    /// the child ended or `timeout` passed first (the bound only stops a hung test).
    func waitForLine(timeout: TimeInterval = 120, _ matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (found, end) = output.lines.withLock { all -> (String?, Int) in
                let start = cursor.withLock { $0 }
                for index in start..<all.count where matches(all[index]) { return (all[index], index + 1) }
                return (nil, start)
            }
            if let found {
                cursor.withLock { $0 = end }
                return found
            }
            if output.finished.withLock({ $0 }) || Date() >= deadline { return nil }
            _ = output.arrived.wait(timeout: .now() + min(max(deadline.timeIntervalSinceNow, 0), 1))
        }
    }

    /// Closes stdin and waits for the exit; the status.
    func waitForExit() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
