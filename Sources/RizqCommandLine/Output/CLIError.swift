#if CLI
import RizqPrefs
import RizqCore

/// A failure that ends a command: one line on stderr naming the cause and the fix, and the
/// matching ``ExitStatus``.
package struct CLIError: Error {
    package var status: ExitStatus
    package var message: String

    package init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    package init(_ error: SuiteStoreError) {
        switch error {
        case .invalidSuiteName, .invalidAppID, .invalidValue, .notAllowed: status = .usage
        case .importNotJSON, .importNotAnObject, .importOtherSchemaVersion, .schemaNotJSON, .invalidSchema, .schemaTooLarge: status = .usage
        case .unreadable, .writeFailed, .lockTimedOut: status = .storage
        case .forced: status = .forced
        }
        if case .writeFailed(let path, let reason) = error {
            // The library's "then flush again" is advice for an app; a command is over.
            message = "cannot write suite file \(path): \(Self.commandAdvice(reason)); nothing was changed (the file is as it was): free disk space or fix the folder's permissions, then run the command again"
        } else if case .lockTimedOut(let path, let lockFile, let waited, let holders) = error {
            message = "cannot write suite file \(path): another process held its lock (\(lockFile)) for all of the \(waited) this command waits: \(holders); nothing was changed: run the command again once the lock is free (RIZQ_PREFS_LOCK_TIMEOUT=SECONDS sets how long to wait; none waits for ever)"
        } else if case .forced(let key, let path) = error {
            message = "key '\(key)' is locked by an administrator in \(path); nothing was written"
        } else {
            message = error.description
        }
    }

    package init(_ error: SecretError) {
        switch error {
        case .invalidInput, .invalidConfiguration: status = .usage
        case .notText: status = .storage
        default: status = .secretService
        }
        switch error {
        case .locked(let detail):
            // The library's message names its API (allowsPrompt); here the option is --prompt.
            message = "the keyring is locked (\(detail)); unlock it (log in to the desktop, or `printf 'PASSWORD' | gnome-keyring-daemon --unlock --components=secrets` on a headless machine), or run the command again with --prompt to be asked for the keyring's password"
        default:
            message = error.description
        }
    }

    /// A library reason's own advice, for a command: an app flushes again, a user runs the
    /// command again (the command's process ends; nothing stays pending).
    package static func commandAdvice(_ text: String) -> String {
        text.replacingOccurrences(of: "flush again", with: "run the command again")
    }

    package init(_ error: PrefValueParseError) {
        status = .usage
        message = error.description + "; or choose another --type"
    }
}
#endif
