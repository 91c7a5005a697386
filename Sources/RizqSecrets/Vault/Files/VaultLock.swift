#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch

/// The vault's writer lock: an exclusive `flock` on the folder's `lock` file, held from reading
/// the vault to renaming the new one, so that concurrent writers (threads or processes) each
/// see the other's secrets. The kernel releases it when the holder dies, even by `kill -9`.
/// Readers take no lock: a rename replaces the file whole.
enum VaultLock {
    /// Runs `body` holding the lock on `path` (created 0600 if missing), waiting at most
    /// `timeout` seconds for it first. Writers hold it for one read-change-write (milliseconds)
    /// or, when a vault is being made, for its slots (a `systemd-creds` run, a prompt): a long
    /// wait means something is stuck, and the caller gets an error instead of hanging.
    static func holding<Result>(_ path: String, timeout: Double, _ body: () throws(VaultError) -> Result) throws(VaultError) -> Result {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .fileSystem(path: path, operation: "open the lock file", reason: PrivateFiles.errnoText(errno)) }
        // Closing the descriptor releases the flock.
        defer { close(fd) }
        _ = fchmod(fd, 0o600)
        // flock has no time-out: try without blocking, and back off between tries (0.5 ms
        // doubling to 20 ms) until the deadline.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var pause: Int = 500_000
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else { throw .fileSystem(path: path, operation: "lock", reason: PrivateFiles.errnoText(code)) }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw .timedOut(command: "waiting for the lock \(path) (another process is writing the vault, or is stuck holding it)", seconds: timeout)
            }
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&interval, nil)
            pause = min(pause * 2, 20_000_000)
        }
        return try body()
    }
}
