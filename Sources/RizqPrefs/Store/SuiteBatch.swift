/// Changes collected by ``SuiteStore/batch(_:)`` and applied all at once, or not at all.
///
/// ```swift
/// try store.batch { batch in
///     try batch.set(7, forKey: "current_streak")
///     try batch.set(Date(), forKey: "last_sync_timestamp")
///     batch.removeObject(forKey: "cached_journey_ids")
/// }
/// ```
public struct SuiteBatch {
    var changes: [(key: String, value: PrefValue?)] = []
    var staged: [String: PrefValue?] = [:]
    var replacingAll = false
    let store: SuiteStore

    init(store: SuiteStore) { self.store = store }

    /// Stages `value` (`nil` removes the key).
    /// - Throws: ``SuiteStoreError/invalidValue(key:reason:)`` for a value a suite cannot hold,
    ///   ``SuiteStoreError/notAllowed(key:reason:)`` for one the suite's schema forbids,
    ///   ``SuiteStoreError/forced(key:path:)`` for a key an administrator forced; when the body
    ///   rethrows it, the whole batch is dropped.
    public mutating func set<Value: PrefValueConvertible>(_ value: Value?, forKey key: String) throws(SuiteStoreError) {
        let stored = value?.prefValue
        if let stored { try SuiteStore.validate(stored, forKey: key) }
        try store.checkLayers(stored, forKey: key)
        stage(stored, forKey: key)
    }

    /// Stages a Foundation-style value (see ``SuiteStore/put(any:forKey:)``).
    public mutating func set(_ value: Any?, forKey key: String) throws(SuiteStoreError) {
        let stored = try SuiteStore.storable(value, forKey: key)
        try store.checkLayers(stored, forKey: key)
        stage(stored, forKey: key)
    }

    /// Stages the removal of `key`. For a key an administrator forced, the user's value goes and
    /// the forced one still reads, as ``SuiteStore/removeObject(forKey:)`` does.
    public mutating func removeObject(forKey key: String) {
        stage(nil, forKey: key)
    }

    /// Stages the removal of every key, before the changes staged after it.
    public mutating func removeAll() {
        replacingAll = true
        changes = []
        staged = [:]
    }

    /// The value `key` will have if the batch is applied.
    public func value(forKey key: String) -> PrefValue? {
        if let change = staged[key] { return change }
        return replacingAll ? nil : store.prefValue(forKey: key)
    }

    private mutating func stage(_ value: PrefValue?, forKey key: String) {
        changes.append((key, value))
        staged.updateValue(value, forKey: key)
    }
}

extension SuiteStore {
    /// Runs `body` to stage several changes, then applies them in one step: this process's
    /// readers, other processes, and the file see all of them or none. If `body` throws,
    /// nothing is applied.
    @discardableResult
    public func batch<Result>(_ body: (inout SuiteBatch) throws -> Result) rethrows -> Result {
        var batch = SuiteBatch(store: self)
        let result = try body(&batch)
        guard !batch.changes.isEmpty || batch.replacingAll else { return result }
        openSuite.apply(batch.changes, replacingAll: batch.replacingAll)
        postDidChange()
        return result
    }
}
