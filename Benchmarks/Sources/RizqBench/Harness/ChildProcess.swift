import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its standard input and output on pipes.
///
/// Not Foundation's `Process`: it costs tens of milliseconds per start here, which would be
/// charged to a program being timed, and its `waitUntilExit` can miss a child's exit in a process
/// where GLib runs (GSettings and libsecret do, here).
final class ChildProcess {
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var inputOpen = true
    private var exitStatus: Int32?
    /// The signal that ended the child, once it was reaped and a signal ended it.
    private(set) var terminationSignal: Int32?

    /// Starts `path` with `arguments`; its standard error goes to `errorPath` (a file, created or
    /// truncated) when one is given, else to ours.
    init(_ path: String, _ arguments: [String], errorPath: String? = nil) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw BenchError("pipe failed: errno \(errno)") }
        // Close-on-exec: a child started later must not inherit this one's pipe ends (holding
        // this child's input open, it would keep this child from ever seeing its end). The
        // child's own ends reach it through dup2, which clears the flag. (Glibc's Swift module
        // has no pipe2.)
        for end in toChild + fromChild { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for end in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, end) }
        if let errorPath { posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw BenchError("cannot start \(path): errno \(result)")
        }
        self.pid = pid
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        _ = try? wait()
        close(output)
    }

    /// Writes `line` and a newline to the child's standard input.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(input, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw BenchError("the child \(pid) stopped reading: errno \(errno)")
            }
            written += count
        }
    }

    /// The child's next line of output, or nil at its end.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard readMore() else {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
        }
    }

    /// Everything the child writes until it closes its output, byte for byte.
    func readAll() -> Data {
        while readMore() {}
        defer { buffer.removeAll() }
        return Data(buffer)
    }

    /// Reads what the child wrote next into `buffer`; false at the end of its output.
    private func readMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }

    /// Closes the child's input (the end of a request it reads to its end), leaving it running.
    func closeInput() {
        guard inputOpen else { return }
        inputOpen = false
        close(input)
    }

    /// Closes the child's input (its cue to end) and waits for it; returns its exit status
    /// (-1 when a signal ended it).
    @discardableResult
    func wait() throws -> Int32 {
        if inputOpen {
            inputOpen = false
            close(input)
        }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchError("waitpid \(pid): errno \(errno)") }
        }
        let exited = (status & 0x7F) == 0
        exitStatus = exited ? (status >> 8) & 0xFF : -1
        if !exited { terminationSignal = status & 0x7F }
        return exitStatus ?? -1
    }
}

/// Runs a program to its end and returns its exit status and standard output.
func spawnAndWait(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
    let child = try ChildProcess(path, arguments)
    let output = child.readAll()
    return (try child.wait(), output)
}

/// This program's own executable, for starting it again in a child mode.
func selfPath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}
