import Logging
import Synchronization

/// Warnings logged once per process and subject (a suite's path and what went wrong with it),
/// for faults that repeat at every write or read until fixed: one line says why, not thousands.
enum OnceWarnings {
    private static let warned = Mutex<Set<String>>([])

    /// Logs `message` unless a warning about `subject` was logged before; `true` when it did.
    @discardableResult
    static func warn(_ subject: String, _ message: String, suite: String? = nil) -> Bool {
        guard warned.withLock({ $0.insert(subject).inserted }) else { return false }
        Logger.rizqPrefs.warning("\(message)", metadata: suite.map { ["suite": "\($0)"] } ?? [:])
        return true
    }
}
