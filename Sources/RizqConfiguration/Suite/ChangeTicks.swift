#if Configuration
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
}
#endif
