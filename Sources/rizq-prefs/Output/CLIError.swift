import RizqPrefs
import RizqSecrets

/// A failure that ends a command: one line on stderr naming the cause and the fix, and the
/// matching ``ExitStatus``.
struct CLIError: Error {
    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    init(_ error: SuiteStoreError) {
        switch error {
        case .invalidSuiteName, .invalidAppID, .invalidValue: status = .usage
        case .unreadable, .writeFailed: status = .storage
        }
        message = error.description
    }

    init(_ error: SecretError) {
        switch error {
        case .invalidInput: status = .usage
        case .notText: status = .storage
        default: status = .secretService
        }
        message = error.description
    }

    init(_ error: PrefValueParseError) {
        status = .usage
        message = error.description + "; or choose another --type"
    }
}
