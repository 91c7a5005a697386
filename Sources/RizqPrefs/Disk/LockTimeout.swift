import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How long a write waits for another process to let go of a suite's lock: what
/// ``SuiteStore/lockTimeout`` sets, else `RIZQ_PREFS_LOCK_TIMEOUT`, else ``defaultTimeout``.
enum LockTimeout {
    /// Long enough for any healthy writer (a write holds the lock for the time of one `fsync`,
    /// a migration for its stages), short enough that a stopped or hung holder is named while
    /// someone still waits for the answer.
    static let defaultTimeout: Duration = .seconds(10)
    /// The environment variable: seconds (`2`, `0.5`), `0` for no wait at all, `none` to wait
    /// for ever.
    static let environmentName = "RIZQ_PREFS_LOCK_TIMEOUT"

    private enum Setting {
        case fromEnvironment
        case set(Duration?)
    }

    private static let setting = Mutex(Setting.fromEnvironment)

    /// The time-out in force; `nil`: wait for ever. Read at each wait (the environment too), and
    /// only when the lock is not free at once.
    static var current: Duration? {
        get {
            if case .set(let value) = setting.withLock({ $0 }) { return value }
            if let parsed = parse(getenv(environmentName).map { String(cString: $0) }) { return parsed }
            return defaultTimeout
        }
        set {
            setting.withLock { $0 = .set(newValue) }
        }
    }

    /// The time-out `text` names — `.some(nil)` for "for ever" (`none`, `inf`, `forever`) —
    /// or `nil` when it names none that is valid (the default applies then).
    static func parse(_ text: String?) -> Duration?? {
        guard let text = text?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty else { return nil }
        if ["none", "inf", "infinity", "forever", "never"].contains(text) { return .some(nil) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
        return .some(.nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
    }
}
