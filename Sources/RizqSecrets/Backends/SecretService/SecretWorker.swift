#if Secrets
import Dispatch
import Foundation

/// The one thread that talks to libsecret. Its calls block (on a frozen daemon, each D-Bus
/// round trip until its own time-out), so they never run on the Swift concurrency pool, and the
/// caller gives up after its time-out while the worker finishes the call in the background.
final class SecretWorker: Sendable {
    static let shared = SecretWorker()

    private let queue = DispatchQueue(label: "RizqSecrets.libsecret", qos: .userInitiated)

    /// Runs `body` on the worker and waits for it at most `timeout` seconds.
    func run<Value: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws(SecretError) -> Value) throws(SecretError) -> Value {
        try BlockingCall.run(on: queue, timeout: timeout, onTimeout: .timedOut(seconds: timeout), body)
    }

    /// Runs `body` on the worker; the awaiting task is suspended, not blocked.
    func run<Value: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws(SecretError) -> Value) async throws(SecretError) -> Value {
        try await BlockingCall.run(on: queue, timeout: timeout, onTimeout: .timedOut(seconds: timeout), body)
    }
}
#endif
