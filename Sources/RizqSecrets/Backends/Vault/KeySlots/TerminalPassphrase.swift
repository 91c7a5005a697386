#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asks for a passphrase on the controlling terminal with echo off (never on stdin/stdout, which
/// may be a pipe carrying data), as `age -p` and `ssh` do. Echo comes back on however the prompt
/// ends, Ctrl-C included (``TerminalEcho``).
enum TerminalPassphrase {
    static var isAvailable: Bool {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    static func read(prompt: String) throws(VaultError) -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .keySourceFailed(source: .passphrase, detail: "no terminal to ask for the passphrase on (\(PrivateFiles.errnoText(errno)))") }
        defer { close(fd) }
        return TerminalEcho.withEchoOff(on: fd, echoNewline: true) { () -> [UInt8] in
            let promptBytes = Array(prompt.utf8)
            _ = promptBytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while line.count <= PassphraseReader.maximumLength {
                let count = Glibc.read(fd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                if count <= 0 || byte == 0x0A { break }
                line.append(byte)
            }
            byte = 0
            return line
        }
    }
}
#endif
