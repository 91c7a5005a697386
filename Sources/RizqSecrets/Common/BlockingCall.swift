#if Secrets
import Dispatch
import Foundation
import RizqCore
import Synchronization

/// Runs blocking secret work (D-Bus calls, files, `systemd-creds`, scrypt) on a dispatch queue,
/// never on the Swift concurrency pool, and lets the caller stop waiting at a deadline: the work
/// goes on in the background (it has bounds of its own), and the caller gets `onTimeout`.
///
/// The one copy of this hand-over, for the libsecret worker thread, the vault's `async` calls and
/// the chain.
enum BlockingCall {
    /// Runs `body` on `queue` and waits for it at most `timeout` seconds (`nil`: for as long as
    /// it takes).
    static func run<Value: Sendable>(
        on queue: DispatchQueue, timeout: Double?, onTimeout: @autoclosure () -> SecretError,
        _ body: @escaping @Sendable () throws(SecretError) -> Value
    ) throws(SecretError) -> Value {
        let outcome = Mutex<Result<Value, SecretError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            let result = capture(body)
            outcome.withLock { $0 = result }
            done.signal()
        }
        let finished = timeout.map { done.wait(timeout: .now() + $0) == .success } ?? { done.wait(); return true }()
        guard finished, let result = outcome.withLock({ $0 }) else { throw onTimeout() }
        return try result.get()
    }

    /// Runs `body` on `queue`; the awaiting task is suspended, not blocked, and resumes with
    /// `onTimeout` after `timeout` seconds (`nil`: no deadline) if `body` has not finished.
    static func run<Value: Sendable>(
        on queue: DispatchQueue, timeout: Double?, onTimeout: @escaping @autoclosure @Sendable () -> SecretError,
        _ body: @escaping @Sendable () throws(SecretError) -> Value
    ) async throws(SecretError) -> Value {
        let claimed = Atomic<Bool>(false)
        let result: Result<Value, SecretError> = await withCheckedContinuation { continuation in
            queue.async {
                let result = capture(body)
                if !claimed.exchange(true, ordering: .acquiringAndReleasing) { continuation.resume(returning: result) }
            }
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    if !claimed.exchange(true, ordering: .acquiringAndReleasing) { continuation.resume(returning: .failure(onTimeout())) }
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
#endif
