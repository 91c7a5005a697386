import Synchronization

/// Hands each event to every subscriber: the streams of ``DeviceSync/events`` and the
/// listeners inside the module (``UbiquitousKeyValueStore``'s notifications).
final class EventHub: Sendable {
    private struct Subscribers {
        var next: UInt64 = 0
        var streams: [UInt64: AsyncStream<SyncEvent>.Continuation] = [:]
        var listeners: [UInt64: @Sendable (SyncEvent) -> Void] = [:]
    }

    private let subscribers = Mutex(Subscribers())

    /// A new stream of the events from now on.
    func stream() -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream<SyncEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = subscribers.withLock { state in
            state.next += 1
            state.streams[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `listener` with every event from now on (on the thread that emits it); the id
    /// ``remove(_:)`` takes.
    func listen(_ listener: @escaping @Sendable (SyncEvent) -> Void) -> UInt64 {
        subscribers.withLock { state in
            state.next += 1
            state.listeners[state.next] = listener
            return state.next
        }
    }

    func remove(_ id: UInt64) {
        _ = subscribers.withLock { $0.listeners.removeValue(forKey: id) }
    }

    func emit(_ events: [SyncEvent]) {
        guard !events.isEmpty else { return }
        let (streams, listeners) = subscribers.withLock { (Array($0.streams.values), Array($0.listeners.values)) }
        for event in events {
            for stream in streams { stream.yield(event) }
            for listener in listeners { listener(event) }
        }
    }

    /// Ends every stream.
    func finish() {
        let streams = subscribers.withLock { Array($0.streams.values) }
        for stream in streams { stream.finish() }
    }
}
