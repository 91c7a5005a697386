import Dispatch

extension SuiteStore {
    /// Every change of `key`, in order, once each: its new value as readers see it, or `nil` when
    /// it was removed (also by ``removePersistentDomain(forName:)``) and no layer has it. An
    /// administrator's lock or default appearing, changing or going is a change too; a write
    /// hidden by a forced value is not. Changes made by other processes
    /// arrive too, within milliseconds of their write. The stream starts with the next change;
    /// read the current value first if you need it.
    ///
    /// ```swift
    /// for await streak in store.changes(forKey: "current_streak") {
    ///     print("streak is now", streak?.description ?? "unset")
    /// }
    /// ```
    public func changes(forKey key: String) -> AsyncStream<PrefValue?> {
        observe(key: key) { $0.newValue }
    }

    /// Every change of `key` as `Value`; `nil` when the key was removed or holds another type.
    public func changes<Value: PrefValueConvertible>(forKey key: String, as type: Value.Type) -> AsyncStream<Value?> {
        observe(key: key) { $0.newValue.flatMap(Value.init(prefValue:)) }
    }

    /// Every change of every key of the suite, in order, with where it came from.
    public func changes() -> AsyncStream<SuiteChange> {
        observe(key: nil) { $0 }
    }

    /// Every change of the user's layer (the suite file) alone, as it is: what device sync
    /// carries. An administrator's layers and the schema never show here, and a write under a
    /// forced key does.
    package func userLayerChanges() -> AsyncStream<SuiteChange> {
        observe(key: nil, userLayer: true) { $0 }
    }

    private func observe<Element: Sendable>(
        key: String?, userLayer: Bool = false, _ transform: @escaping @Sendable (SuiteChange) -> Element
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let openSuite = self.openSuite
        let id = openSuite.memory.addObserver(key: key, userLayer: userLayer) { change in continuation.yield(transform(change)) }
        continuation.onTermination = { _ in
            // Not inline: termination may be triggered while the suite's state is locked.
            DispatchQueue.global().async { openSuite.memory.removeObserver(id) }
        }
        return stream
    }
}
