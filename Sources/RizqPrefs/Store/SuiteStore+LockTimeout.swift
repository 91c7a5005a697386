extension SuiteStore {
    /// How long a write — a flush, a commit, a migration, the coalesced write after a `set` —
    /// waits for another process to let go of the suite's lock before it fails with
    /// ``SuiteStoreError/lockTimedOut(path:lockFile:waited:holders:)``, which names the holder
    /// (its pid, its command line, whether it is stopped) and what to do; `nil` waits for ever.
    ///
    /// Default: `RIZQ_PREFS_LOCK_TIMEOUT` (seconds, such as `2` or `0.5`; `none` for ever), else
    /// 10 seconds. A healthy writer holds the lock for one `fsync`; only a stopped, hung or very
    /// slow process holds it for seconds. For the whole process, every suite; read at each wait.
    ///
    /// ```swift
    /// SuiteStore.lockTimeout = .seconds(2)
    /// ```
    public static var lockTimeout: Duration? {
        get { LockTimeout.current }
        set { LockTimeout.current = newValue }
    }
}
