#if CLI
#if canImport(Glibc)
import Glibc
#endif

/// The command line's bytes as the kernel gave them. Swift's `CommandLine.arguments` repairs
/// bytes that are not UTF-8 into U+FFFD, so that `$'\xff'` and `$'\xfe'` would both become the
/// key "\u{FFFD}" — one key for two names. Such an argument is refused instead (exit 2),
/// before anything runs.
package enum RawArguments {
    /// The error for the first argument that is not valid UTF-8, or `nil` when all are. The
    /// message names the argument by its position and the bad byte, never by its text (it may be
    /// a secret typed where it does not belong).
    package static func invalidUTF8() -> CLIError? {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return nil }
        for index in 1..<count {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let length = strlen(argument)
            let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(argument), count: length)
            if let offset = firstInvalidByte(in: bytes) {
                let byte = "0x" + String(bytes[offset], radix: 16, uppercase: true)
                return CLIError(.usage, "argument \(index) is not valid UTF-8 text (byte \(byte) at offset \(offset)): keys, values, names and paths must be UTF-8, or two different names would become the same one; nothing was done: convert it (iconv -f LATIN1 -t UTF-8), or give binary values as base64 with --type data")
            }
        }
        return nil
    }

    /// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence, or
    /// `nil` when all of it is valid.
    package static func firstInvalidByte(in bytes: UnsafeRawBufferPointer) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
#endif
