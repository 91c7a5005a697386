#if Configuration
import Configuration

/// Turns a suite's change stream into the "current value first, then after each change"
/// sequence that swift-configuration's `watch` methods hand to their caller.
package enum ChangeTicks {
    /// Runs `body` with a sequence that yields once at once and once after each element of
    /// `changes` (at most one tick waits: a burst of changes is read once, as its result).
    /// The ticks carry no value: the caller reads the state when it takes a tick, so that what
    /// it reads is never older than the last change. Forwarding stops when `body` returns.
    package static func watch<Change: Sendable, Return: ~Copyable>(
        _ changes: AsyncStream<Change>,
        body: (AsyncStream<Void>) async throws -> Return
    ) async throws -> Return {
        let (ticks, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // The change stream was subscribed to before this first tick, so no change after the
        // first read can be missed.
        continuation.yield()
        let forwarding = Task {
            for await _ in changes { continuation.yield() }
            continuation.finish()
        }
        defer {
            forwarding.cancel()
            continuation.finish()
        }
        return try await body(ticks)
    }

    /// A provider's `watchValue`: `read()` at once, then after each element of `changes`.
    package static func watchValue<Change: Sendable, Return: ~Copyable>(
        _ changes: AsyncStream<Change>,
        read: @escaping @Sendable () throws -> LookupResult,
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        try await watch(changes) { ticks in
            try await updatesHandler(ConfigUpdatesAsyncSequence(ticks.map { _ in Result { try read() } }))
        }
    }

    /// A provider's `watchSnapshot`: `snapshot()` at once, then after each element of `changes`.
    package static func watchSnapshot<Change: Sendable, Return: ~Copyable>(
        _ changes: AsyncStream<Change>,
        snapshot: @escaping @Sendable () -> any ConfigSnapshot,
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watch(changes) { ticks in
            try await updatesHandler(ConfigUpdatesAsyncSequence(ticks.map { _ in snapshot() }))
        }
    }
}
#endif
