#if Secrets
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The standard streams of a credential helper (`git-credential-rizq`, `docker-credential-rizq`):
/// a request read whole but bounded, an answer written whole, and the bytes that held a secret
/// cleared.
package enum HelperStreams {
    /// Standard input up to its end — or, with `stopAtBlankLine`, up to a blank line, as git's
    /// helpers read — at most `limit` bytes; `nil` when there is more than that.
    package static func readInput(limit: Int, stopAtBlankLine: Bool) -> [UInt8]? {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let searchFrom = Swift.max(0, input.count - 1)
            input += chunk[..<count]
            if input.count > limit { return nil }
            if stopAtBlankLine && endsWithBlankLine(input, from: searchFrom) { break }
        }
        return input
    }

    /// Writes `text` to standard output whole (a signal's interruption retried), then clears
    /// the bytes that held it.
    package static func writeOutput(_ text: String) {
        var bytes = Array(text.utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Prints `message` on standard error, prefixed with the program's name, and exits with `status`.
    package static func fail(_ program: String, _ status: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        exit(status)
    }

    /// Whether `input` holds the blank line that ends a git request (it may start with it),
    /// looking from `start` on (what came before was looked at already).
    private static func endsWithBlankLine(_ input: [UInt8], from start: Int) -> Bool {
        if input.first == UInt8(ascii: "\n") { return true }
        var index = start
        while index + 1 < input.count {
            if input[index] == UInt8(ascii: "\n") && input[index + 1] == UInt8(ascii: "\n") { return true }
            index += 1
        }
        return false
    }
}
#endif
