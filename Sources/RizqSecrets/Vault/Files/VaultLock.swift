#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The vault's writer lock: an exclusive `flock` on the folder's `lock` file, held from reading
/// the vault to renaming the new one, so that concurrent writers (threads or processes) each
/// see the other's secrets. The kernel releases it when the holder dies, even by `kill -9`.
/// Readers take no lock: a rename replaces the file whole.
enum VaultLock {
    /// Runs `body` holding the lock on `path` (created 0600 if missing), waiting for it first.
    static func holding<Result>(_ path: String, _ body: () throws(VaultError) -> Result) throws(VaultError) -> Result {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .fileSystem(path: path, operation: "open the lock file", reason: PrivateFiles.errnoText(errno)) }
        // Closing the descriptor releases the flock.
        defer { close(fd) }
        _ = fchmod(fd, 0o600)
        while flock(fd, LOCK_EX) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw .fileSystem(path: path, operation: "lock", reason: PrivateFiles.errnoText(code))
        }
        return try body()
    }
}
