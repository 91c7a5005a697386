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
                let watch = DeadlineWatch.shared.add(after: limit) {
                    if gate.resume(with: .failure(DeadlineExceeded(limit: limit))) {
                        onTimeout()
                        work.cancel()
                    }
                }
                gate.install(continuation, cancelling: work, watch: watch)
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
        var watch: DeadlineWatch.Entry?
        var done = false
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T, any Error>, cancelling work: Task<Void, Never>, watch: DeadlineWatch.Entry) {
        let early: Result<T, any Error>? = state.withLock { state in
            state.work = work
            state.watch = watch
            if let early = state.early {
                state.early = nil
                return early
            }
            state.continuation = continuation
            return nil
        }
        if let early {
            DeadlineWatch.shared.remove(watch)
            if case .failure = early { work.cancel() }
            continuation.resume(with: early)
        }
    }

    /// `true` when this result is the one the caller gets.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        let taken: (CheckedContinuation<T, any Error>?, Task<Void, Never>?, DeadlineWatch.Entry?)? = state.withLock { state in
            guard !state.done else { return nil }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = result
                return (nil, nil, nil)
            }
            state.continuation = nil
            return (continuation, state.work, state.watch)
        }
        guard let (continuation, work, watch) = taken else { return false }
        if let watch { DeadlineWatch.shared.remove(watch) }
        if case .failure(let error) = result, error is CancellationError { work?.cancel() }
        continuation?.resume(with: result)
        return true
    }
}

/// The deadlines of the calls in flight, all watched by one timer that ticks every 50 ms while
/// any is pending and stops when none is: a call adds and removes an entry (a dictionary update
/// under a lock), where arming a dispatch timer of its own per call woke dispatch's timer thread
/// for each and left each cancelled timer queued until its time (10 s later). A deadline fires
/// at most one tick late.
private final class DeadlineWatch: Sendable {
    /// One call's entry.
    struct Entry: Sendable {
        fileprivate let id: UInt64
    }

    static let shared = DeadlineWatch()

    private struct Pending {
        var deadline: ContinuousClock.Instant
        var fire: @Sendable () -> Void
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        var lastID: UInt64 = 0
        var ticking = false
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "RizqFleet.deadlines")

    /// Runs `fire` once `limit` has passed, unless the entry is removed first.
    func add(after limit: Duration, _ fire: @escaping @Sendable () -> Void) -> Entry {
        let deadline = ContinuousClock.now + limit
        let (id, start) = state.withLock { state in
            state.lastID &+= 1
            state.pending[state.lastID] = Pending(deadline: deadline, fire: fire)
            defer { state.ticking = true }
            return (state.lastID, !state.ticking)
        }
        if start { scheduleTick() }
        return Entry(id: id)
    }

    /// Forgets the entry: its call ended first.
    func remove(_ entry: Entry) {
        _ = state.withLock { $0.pending.removeValue(forKey: entry.id) }
    }

    private func scheduleTick() {
        queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [self] in tick() }
    }

    private func tick() {
        let now = ContinuousClock.now
        let (due, again) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
            var due: [@Sendable () -> Void] = []
            for (id, pending) in state.pending where pending.deadline <= now {
                due.append(pending.fire)
                state.pending.removeValue(forKey: id)
            }
            state.ticking = !state.pending.isEmpty
            return (due, state.ticking)
        }
        for fire in due { fire() }
        if again { scheduleTick() }
    }
}
#endif
