#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import RizqCore
import Synchronization

/// Reads a passphrase from a ``VaultPassphraseSource``.
enum PassphraseReader {
    static let maximumLength = 64 * 1024

    /// The rule of a passphrase file: this user's (or root's), nobody else may read or write it
    /// (a passphrase others can read protects nothing). A link is followed, and the file it
    /// names judged.
    static let fileTrust = FileTrust.secret("passphrase file").following(true)

    /// A descriptor can be read to its end only once: what it gave is kept for this process, in
    /// memory of its own (locked out of swap, out of core dumps, zeroed when freed: the kind
    /// the file keyring keeps its master password in).
    private static let descriptorPassphrases = Mutex<[Int32: FileKeyringPassword]>([:])

    /// Whether `source` can give a passphrase now without anyone's help; the reason if not.
    static func availability(_ source: VaultPassphraseSource) -> (usable: Bool, reason: String) {
        switch source {
        case .file(let path):
            var info = stat()
            if stat(path, &info) == 0 {
                do {
                    try fileTrust.check(info, path: path, operation: .read)
                } catch {
                    return (false, "\(source.summary) is refused: " + error.reason)
                }
            }
            return access(path, R_OK) == 0 ? (true, "\(source.summary) is readable") : (false, "\(source.summary) cannot be read (\(PrivateFiles.errnoText(errno)))")
        case .fileDescriptor(let fd):
            if descriptorPassphrases.withLock({ $0[fd] != nil }) { return (true, "read from \(source.summary) earlier in this process") }
            return fcntl(fd, F_GETFD) >= 0 ? (true, "\(source.summary) is open") : (false, "\(source.summary) is not open")
        case .command:
            return (true, "\(source.summary) is set")
        case .terminal:
            return TerminalPassphrase.isAvailable ? (true, "a terminal is attached") : (false, "no terminal (/dev/tty) to ask on")
        }
    }

    /// The passphrase from `source`. `confirm`: on a terminal, ask twice (a new passphrase).
    static func read(_ source: VaultPassphraseSource, prompt: String, confirm: Bool, timeout: Double) throws(VaultError) -> [UInt8] {
        var passphrase: [UInt8]
        switch source {
        case .file(let path):
            guard let data = try PrivateFiles.read(path, limit: maximumLength, trust: fileTrust) else {
                throw .keySourceFailed(source: .passphrase, detail: "\(source.summary) does not exist")
            }
            passphrase = Array(data)
        case .fileDescriptor(let fd):
            passphrase = try readDescriptor(fd)
        case .command(let command):
            var result = try KeySourceCommand.run(
                "/bin/sh", ["-c", command], input: nil, timeout: timeout, source: .passphrase, name: "the passphrase command",
                environment: .passphraseCommand)
            defer { result.stdout.resetBytes(in: 0..<result.stdout.count) }
            // Not the command's output or stderr: either could hold the passphrase.
            guard result.status == 0 else {
                throw .keySourceFailed(source: .passphrase, detail: "the passphrase command exited with status \(result.status); fix it (run it by hand) or unset RIZQ_SECRETS_PASSPHRASE_COMMAND")
            }
            passphrase = Array(result.stdout)
        case .terminal:
            passphrase = try TerminalPassphrase.read(prompt: prompt)
            if confirm {
                let again = try TerminalPassphrase.read(prompt: "Confirm the passphrase: ")
                guard again == passphrase else { throw .keySourceFailed(source: .passphrase, detail: "the two passphrases typed differ; nothing was changed") }
            }
        }
        if passphrase.last == 0x0A { passphrase.removeLast() }
        if passphrase.last == 0x0D { passphrase.removeLast() }
        guard !passphrase.isEmpty else { throw .keySourceFailed(source: .passphrase, detail: "\(source.summary) gave an empty passphrase") }
        return passphrase
    }

    /// The passphrase descriptor `fd` gives (read once per process, then kept as
    /// ``descriptorPassphrases`` says). Every buffer it passed through is zeroed before it is
    /// freed: the read goes into one allocation, never grown (no copy left behind by a
    /// reallocation). The caller zeroes the copy it gets.
    private static func readDescriptor(_ fd: Int32) throws(VaultError) -> [UInt8] {
        if let known = descriptorPassphrases.withLock({ $0[fd] }) { return known.withBytes { Array($0) } }
        var bytes = [UInt8](repeating: 0, count: maximumLength + 1)
        defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } } }
        var length = 0
        while true {
            let count: Int
            do throws(Errno) {
                count = try DescriptorIO.read(fd, into: &bytes, from: length)
            } catch {
                throw .keySourceFailed(source: .passphrase, detail: "cannot read file descriptor \(fd): \(error)")
            }
            if count == 0 { break }
            length += count
            guard length <= maximumLength else {
                throw .keySourceFailed(source: .passphrase, detail: "file descriptor \(fd) gives more than \(maximumLength) bytes; it is not a passphrase")
            }
        }
        guard let kept = bytes.withUnsafeBytes({ FileKeyringPassword(copying: UnsafeRawBufferPointer(rebasing: $0[..<length])) }) else {
            return []
        }
        descriptorPassphrases.withLock { $0[fd] = kept }
        return kept.withBytes { Array($0) }
    }
}
#endif
