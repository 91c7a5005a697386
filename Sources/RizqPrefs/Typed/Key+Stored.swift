extension Key {
    /// What `value` is stored as under this key's type (`nil`: the key is removed), for a store
    /// that keeps the key's value somewhere other than the key's own suite — a fleet suite
    /// (RizqFleet) writes it to its openSuite and reads it back through ``SuiteStore/subscript(_:)``
    /// of its cache.
    /// - Throws: when the value cannot be stored (a `Codable` that fails to encode, a NaN).
    package func storedValue(for value: Value) throws -> PrefValue? {
        try codec.encode(value)
    }
}
