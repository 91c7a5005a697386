#if Fleet
import Dispatch
import Synchronization

/// The deadline of one engine call ran out.
struct DeadlineExceeded: Error, Sendable {
    var limit: Duration
}

/// Runs a call with a deadline that holds even when the call ignores cancellation.
///
/// postgres-nio 1.33.2 can leave a query on a connection that closed under it waiting for ever,
/// deaf to cancellation (the harness notes: a query started on a connection whose server was
/// killed never returned). A task group would wait for that child; so the call runs in a task
/// of its own, and the caller is answered by whichever comes first — the call, the deadline,
/// or the caller's own cancellation. On the deadline `onTimeout` runs (it closes the
/// connection, which frees the call if anything can) and the call's task is cancelled.
enum Deadline {
    static func run<T: Sendable>(
        _ limit: Duration,
        onTimeout: @escaping @Sendable () -> Void = {},
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let gate = ResumeOnce<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let work = Task {
                    let result: Result<T, any Error>
                    do {
                        result = .success(try await body())
                    } catch {
                        result = .failure(error)
                    }
                    gate.resume(with: result)
                }
                let timer = Timer(DispatchWorkItem {
                    if gate.resume(with: .failure(DeadlineExceeded(limit: limit))) {
                        onTimeout()
                        work.cancel()
                    }
                })
                gate.install(continuation, cancelling: work, timer: timer)
                let components = limit.components
                let nanoseconds = max(0, Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000))
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: timer.item)
            }
        } onCancel: {
            gate.resume(with: .failure(CancellationError()))
        }
    }
}

/// Resumes a continuation once, from whichever of the call, the timer and cancellation comes
/// first; a result that arrives before the continuation is installed waits for it.
private final class ResumeOnce<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Timer?
        var done = false
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T, any Error>, cancelling work: Task<Void, Never>, timer: Timer) {
        let early: Result<T, any Error>? = state.withLock { state in
            state.work = work
            state.timer = timer
            if let early = state.early {
                state.early = nil
                return early
            }
            state.continuation = continuation
            return nil
        }
        if let early {
            timer.cancel()
            if case .failure = early { work.cancel() }
            continuation.resume(with: early)
        }
    }

    /// `true` when this result is the one the caller gets.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        let taken: (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Timer?)? = state.withLock { state in
            guard !state.done else { return nil }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = result
                return (nil, nil, nil)
            }
            state.continuation = nil
            return (continuation, state.work, state.timer)
        }
        guard let (continuation, work, timer) = taken else { return false }
        timer?.cancel()
        if case .failure(let error) = result, error is CancellationError { work?.cancel() }
        continuation?.resume(with: result)
        return true
    }
}

/// The deadline's timer: a work item, cancelled when the call ends first. Dispatch's work items
/// are thread-safe but not marked `Sendable`.
private struct Timer: @unchecked Sendable {
    let item: DispatchWorkItem

    init(_ item: DispatchWorkItem) { self.item = item }

    func cancel() { item.cancel() }
}
#endif
