#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asks for a passphrase on the controlling terminal with echo off (never on stdin/stdout, which
/// may be a pipe carrying data), as `age -p` and `ssh` do.
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
        var original = termios()
        let isTerminal = tcgetattr(fd, &original) == 0
        if isTerminal {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(fd, TCSAFLUSH, &silent)
        }
        defer { if isTerminal { _ = tcsetattr(fd, TCSAFLUSH, &original) } }
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
        return line
    }
}
