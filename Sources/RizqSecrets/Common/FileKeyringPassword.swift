#if Secrets
#if canImport(Glibc)
import Glibc
#endif

/// The master password of a file keyring — the bytes PBKDF2 turns into its key — kept in memory
/// of its own: page-aligned, locked out of swap (`mlock`, where the limit allows), left out of
/// core dumps (`MADV_DONTDUMP`), and zeroed (`explicit_bzero`) before it is freed. Never
/// written anywhere, never in a message.
///
/// Where the bytes come from is ``FileKeyringKeySource``: `SECRET_FILE_TEST_PASSWORD`, or the
/// 64 bytes the Secret portal gives a sandboxed app (``SecretPortal``).
package final class FileKeyringPassword: @unchecked Sendable {
    // @unchecked: the buffer is written once, in init, and only read (or zeroed in deinit) after.
    private let buffer: UnsafeMutableRawBufferPointer
    private let capacity: Int
    private let locked: Bool

    /// The number of bytes.
    package let count: Int

    /// A copy of `bytes`; `nil` when they are empty (an empty password derives no key:
    /// libsecret takes an empty `SECRET_FILE_TEST_PASSWORD` as unset).
    package init?(copying bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return nil }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let capacity = (bytes.count + page - 1) / page * page
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, page, capacity) == 0, let memory else { return nil }
        buffer = UnsafeMutableRawBufferPointer(start: memory, count: capacity)
        self.capacity = capacity
        count = bytes.count
        _ = madvise(memory, capacity, MADV_DONTDUMP)
        locked = mlock(memory, capacity) == 0
        buffer.copyMemory(from: bytes)
    }

    /// A copy of `bytes`; `nil` when they are empty.
    package static func copying(_ bytes: [UInt8]) -> FileKeyringPassword? {
        bytes.withUnsafeBytes { FileKeyringPassword(copying: $0) }
    }

    deinit {
        if let start = buffer.baseAddress {
            explicit_bzero(start, capacity)
            if locked { _ = munlock(start, capacity) }
            free(start)
        }
    }

    /// Runs `body` with the password's bytes (valid only during the call).
    package func withBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }

    /// Whether `other` holds the same bytes (compared without an early exit).
    func hasSameBytes(as other: FileKeyringPassword) -> Bool {
        guard count == other.count else { return false }
        return withBytes { mine in
            other.withBytes { theirs in
                var difference: UInt8 = 0
                for index in 0..<count { difference |= mine[index] ^ theirs[index] }
                return difference == 0
            }
        }
    }
}
#endif
