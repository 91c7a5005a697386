#if CLI
/// The exit statuses of `rizq-prefs` (and of `rizq-prefs fleet`, which shares this file),
/// documented in `--help` and README.md.
package enum ExitStatus: Int32 {
    /// It worked.
    case success = 0
    /// The key, secret or suite asked for does not exist.
    case notFound = 1
    /// The command line or its input is wrong: unknown option, invalid suite name, a value that
    /// does not parse as its type, an import file that is missing or not a JSON object.
    case usage = 2
    /// A suite file or folder is unreadable, damaged or not writable.
    case storage = 3
    /// A secret backend is unreachable, locked, read-only or failed (the Secret Service, the
    /// vault, a credential folder), or none can store secrets here.
    case secretService = 4
    /// stdout could not be written (a full disk, an I/O error): what was printed is incomplete.
    case output = 5
    /// `fleet …`: the fleet engine is unreachable, did not answer in time, or refused (login,
    /// TLS, permissions); nothing was written.
    case engine = 6
    /// `fleet set`, `delete`, `import`: a later change of the key, made elsewhere, won; this
    /// one was not stored.
    case superseded = 7
    /// `set`, `delete`, `import`: an administrator forced the key (the managed layer under
    /// `$XDG_CONFIG_DIRS`); nothing was written.
    case forced = 8
}
#endif
