#if Secrets
import RizqCore

/// The vault's writer lock: RizqCore's ``FileLock`` on the folder's `lock` file, held from
/// reading the vault to renaming the new one, so that concurrent writers (threads or processes)
/// each see the other's secrets. The kernel releases it when the holder dies, even by `kill -9`.
/// Readers take no lock: a rename replaces the file whole.
enum VaultLock {
    /// Runs `body` holding the lock on `path` (created 0600 if missing), waiting at most
    /// `timeout` seconds for it first. Writers hold it for one read-change-write (milliseconds)
    /// or, when a vault is being made, for its slots (a `systemd-creds` run, a prompt): a long
    /// wait means something is stuck, and the caller gets an error, naming the holder, instead
    /// of hanging.
    static func holding<Result>(_ path: String, timeout: Double, _ body: () throws(VaultError) -> Result) throws(VaultError) -> Result {
        let lock: FileLock
        do {
            lock = try FileLock.acquire(path, timeout: .nanoseconds(Int64(max(0, min(timeout, 1e9)) * 1e9)), subject: "vault")
        } catch {
            if case .lockTimedOut(_, let holders) = error.problem {
                throw .timedOut(command: "waiting for the lock \(path) (held by \(holders))", seconds: timeout)
            }
            throw error.vaultError
        }
        return try run(body, holding: lock)
    }

    /// Runs `body` while `lock` is borrowed, so that it is held throughout.
    private static func run<Result>(_ body: () throws(VaultError) -> Result, holding lock: borrowing FileLock) throws(VaultError) -> Result {
        try body()
    }
}
#endif
