#if Secrets
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a file keyring's master password comes from, chosen as libsecret chooses it:
/// `SECRET_FILE_TEST_PASSWORD` when set and not empty (even inside a sandbox); else, inside a
/// Flatpak sandbox, the Secret portal; else none — outside a sandbox a file keyring has no key
/// unless one is given (libsecret would try a TPM, which Debian does not build in).
public enum FileKeyringKeySource: String, Sendable, Equatable, Codable {
    /// The bytes of the environment variable `SECRET_FILE_TEST_PASSWORD`, as libsecret takes
    /// them (its name says what it is for: tests, and the tools that read the same file).
    case testPassword = "SECRET_FILE_TEST_PASSWORD"
    /// The 64 bytes the Secret portal gives this app (``/RizqCore/FlatpakSandbox``), kept for the process.
    case portal = "secret-portal"
    /// A password the program gave (benchmarks and tests).
    case given = "given"

    /// The environment variable.
    static let variable = "SECRET_FILE_TEST_PASSWORD"
    /// The longest password taken from the environment.
    static let maximumLength = 64 << 10

    /// The source libsecret would use in this process.
    static func automatic(sandbox: FlatpakSandbox?) -> FileKeyringKeySource? {
        if let value = getenv(variable), value.pointee != 0 { return .testPassword }
        return sandbox != nil ? .portal : nil
    }

    /// `SECRET_FILE_TEST_PASSWORD`'s bytes exactly (no terminating NUL), `nil` when it is
    /// unset or empty.
    /// - Throws: ``/RizqCore/SecretError/invalidConfiguration(detail:)`` when it is longer than
    ///   64 KiB.
    /// The copy is kept while the variable holds the same bytes: a call reads the variable and
    /// compares, and makes a new copy only when it changed.
    static func environmentPassword() throws(SecretError) -> FileKeyringPassword? {
        guard let value = getenv(variable) else { return nil }
        let length = strnlen(value, maximumLength + 1)
        guard length <= maximumLength else {
            throw .invalidConfiguration(detail: "\(variable) is longer than \(maximumLength >> 10) KiB; give a shorter password")
        }
        let bytes = UnsafeRawBufferPointer(start: value, count: length)
        return lastEnvironmentPassword.withLock { last in
            if let kept = last, kept.withBytes({ $0.elementsEqual(bytes) }) { return kept }
            last = FileKeyringPassword(copying: bytes)
            return last
        }
    }

    private static let lastEnvironmentPassword = Mutex<FileKeyringPassword?>(nil)
}
#endif
