import Dispatch
import Foundation
import Synchronization

/// The one thread that talks to libsecret. Its calls block (on a frozen daemon, each D-Bus
/// round trip until its own time-out), so they never run on the Swift concurrency pool, and the
/// caller gives up after its time-out while the worker finishes the call in the background.
final class SecretWorker: Sendable {
    static let shared = SecretWorker()

    private let queue = DispatchQueue(label: "RizqSecrets.libsecret", qos: .userInitiated)

    /// Runs `body` on the worker and waits for it at most `timeout` seconds.
    func run<Value: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws(SecretError) -> Value) throws(SecretError) -> Value {
        let outcome = Mutex<Result<Value, SecretError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            let result = Self.capture(body)
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let result = outcome.withLock({ $0 }) else {
            throw .timedOut(seconds: timeout)
        }
        return try result.get()
    }

    /// Runs `body` on the worker; the awaiting task is suspended, not blocked.
    func run<Value: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws(SecretError) -> Value) async throws(SecretError) -> Value {
        let claimed = Atomic<Bool>(false)
        let result: Result<Value, SecretError> = await withCheckedContinuation { continuation in
            queue.async {
                let result = Self.capture(body)
                if !claimed.exchange(true, ordering: .acquiringAndReleasing) { continuation.resume(returning: result) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if !claimed.exchange(true, ordering: .acquiringAndReleasing) {
                    continuation.resume(returning: .failure(.timedOut(seconds: timeout)))
                }
            }
        }
        return try result.get()
    }

    private static func capture<Value>(_ body: () throws(SecretError) -> Value) -> Result<Value, SecretError> {
        do throws(SecretError) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }
}
