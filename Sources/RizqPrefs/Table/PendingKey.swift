/// A key of ``PendingChanges``: the key with its ``SuiteTable/hash(_:)``, which a local change
/// has computed already to update the memory's table, so that recording the change pending
/// does not hash the key a second time with `Hasher` (about a quarter of a `set`).
///
/// Equal when the keys are equal as `String`s are (canonically equivalent spellings are one
/// key); ``SuiteTable/hash(_:)`` gives such keys one hash, so comparing it first is exact.
struct PendingKey: Hashable, Sendable {
    /// The key.
    let key: String
    /// ``SuiteTable/hash(_:)`` of `key`.
    let hash: Int

    /// `key`, hashed now.
    init(_ key: String) {
        self.init(key, hash: SuiteTable.hash(key))
    }

    /// `key`, whose ``SuiteTable/hash(_:)`` the caller computed.
    init(_ key: String, hash: Int) {
        self.key = key
        self.hash = hash
    }

    static func == (lhs: PendingKey, rhs: PendingKey) -> Bool {
        lhs.hash == rhs.hash && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// What `Dictionary` asks for instead of ``hash(into:)``: the precomputed hash, mixed with
    /// the dictionary's per-instance seed (so that two dictionaries order their keys
    /// differently, as `Hasher` would) by one multiplication. The hash is already keyed by the
    /// process's random seed (``SuiteTable/hash(_:)``).
    func _rawHashValue(seed: Int) -> Int {
        let product = UInt64(bitPattern: Int64(hash ^ seed)).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return Int(truncatingIfNeeded: product.high ^ product.low)
    }
}

extension PendingKey: ExpressibleByStringLiteral {
    /// The key `value`, hashed now: `["theme": time]` spells a ``ChangeLog/Segment``'s keys.
    init(stringLiteral value: String) {
        self.init(value)
    }
}
