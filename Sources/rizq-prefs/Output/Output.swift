import Foundation
import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stdout and stderr with write(2), unbuffered, so that `watch` output reaches a pipe
/// at once and nothing is lost at exit.
enum Output {
    /// Writes `text` and a newline to stdout.
    static func line(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` as is to stdout.
    static func raw(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes bytes as they are to stdout.
    static func bytes(_ data: Data) {
        data.withUnsafeBytes { raw in writeAll(raw, to: STDOUT_FILENO) }
    }

    /// Writes one line to stderr, prefixed with the tool's name.
    static func error(_ text: String) {
        write("rizq-prefs: " + text + "\n", to: STDERR_FILENO)
    }

    /// Writes one line to stderr as is.
    static func note(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr with no newline: a prompt.
    static func prompt(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Whether stdout is a terminal.
    static var isTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) }
    }

    /// write(2) until everything is out; a closed pipe ends the process quietly, as for `head`.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        do {
            try DescriptorIO.writeAll(bytes, to: descriptor)
        } catch {
            if error == .brokenPipe { exit(0) }
        }
    }
}
