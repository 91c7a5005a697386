#if CLI
import Foundation
import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stdout and stderr with write(2), unbuffered, so that `watch` output reaches a pipe
/// at once and nothing is lost at exit.
///
/// Every write to stdout is checked: a write that fails or stops short (a full disk under
/// `export > backup.json`, `/dev/full`, an I/O error) ends the command at once with
/// ``ExitStatus/output`` and one line on stderr naming the cause — a truncated backup must never
/// look like a good one. A closed pipe (the reader went away, as `head` does) ends it quietly, as
/// for any Unix tool: that is the reader's choice, not a failure.
package enum Output {
    /// What the command had already done, for the stdout failure message: "the import itself is
    /// complete", so that the user does not run a finished import again. `nil`: nothing.
    nonisolated(unsafe) package static var doneBeforeOutput: String?

    /// What stdout was carrying, for the stdout failure message ("the export of suite X").
    nonisolated(unsafe) package static var outputName = "the output"

    /// Writes `text` and a newline to stdout.
    package static func line(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` as is to stdout.
    package static func raw(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes bytes as they are to stdout.
    package static func bytes(_ data: Data) {
        data.withUnsafeBytes { raw in writeAll(raw, to: STDOUT_FILENO) }
    }

    /// Writes one line to stderr, prefixed with the tool's name. Control and bidirectional
    /// characters are shown escaped (``DisplayText``), so that a key or suite name cannot
    /// rewrite the line on the terminal.
    package static func error(_ text: String) {
        write("rizq-prefs: " + DisplayText.escaped(text) + "\n", to: STDERR_FILENO)
    }

    /// Writes one line to stderr as is.
    package static func note(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr with no newline: a prompt.
    package static func prompt(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Whether stdout is a terminal.
    package static var isTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// Makes what was written to stdout durable when stdout is a regular file (`export >
    /// backup.json`): a write-back error the kernel reports only now (a full or failing disk, a
    /// network file system) fails the command like a failed write. Nothing for a pipe or terminal.
    package static func syncIfFile() {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        do {
            try DescriptorIO.syncData(STDOUT_FILENO)
        } catch {
            if error != .interrupted { failedStdout(error) }
        }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) }
    }

    /// write(2) until everything is out. A closed pipe ends the process quietly, as for `head`;
    /// any other failure on stdout ends it with ``ExitStatus/output`` (``failedStdout(_:)``). A
    /// failure on stderr has nowhere to be told: the command goes on, and its exit status says
    /// how it ended.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        do {
            try DescriptorIO.writeAll(bytes, to: descriptor)
        } catch {
            if error == .brokenPipe { exit(0) }
            if descriptor == STDOUT_FILENO { failedStdout(error) }
        }
    }

    /// Ends the command after a failed write to stdout: one line on stderr, and exit status 5,
    /// without the library's exit-time flush (a command that changes suites has flushed before it
    /// prints).
    package static func failedStdout(_ error: Errno) -> Never {
        var message = "cannot write to stdout: \(error.description) (errno \(error.rawValue)); \(outputName) is incomplete: do not use what was written"
        if let done = doneBeforeOutput { message += " (\(done))" }
        message += "; " + (error == .noSpace || error == .quotaExceeded
            ? "free disk space, or send the output elsewhere, then run the command again"
            : "check where stdout goes, then run the command again")
        Output.error(message)
        fflush(nil)
        _exit(ExitStatus.output.rawValue)
    }
}
#endif
