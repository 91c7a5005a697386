import Foundation
import RizqCredentials
import RizqJSON

/// The suite's contents during one stage of a migration: what a custom stage reads and changes.
///
/// It holds the suite as the earlier stages left it. Changes stay in memory until every stage
/// has run; then they are written with the new version in one atomic replace of the file, or —
/// when anything fails — not at all.
///
/// ```swift
/// .custom(from: 2, to: 3) { batch in
///     // UserPreferences gained `reminderHour`: decode the old shape, encode the new one.
///     if let old = try batch.decode(UserPreferencesV2.self, forKey: "user_preferences") {
///         try batch.encode(UserPreferences(old, reminderHour: 9), forKey: "user_preferences")
///     }
///     for key in batch.keys where key.hasPrefix("tmp_") { batch.removeObject(forKey: key) }
/// }
/// ```
public struct MigrationBatch {
    /// The version of the data the stage starts from.
    public let fromVersion: Int
    /// The version the stage brings the data to.
    public let toVersion: Int
    /// The suite being migrated.
    public let suiteName: String

    /// The suite as the stages so far have left it.
    var table: SuiteTable
    /// Each key this stage changed, with its value when the stage began (`nil`: absent), in the
    /// order first changed: what a preview shows.
    private(set) var original: [(key: String, value: PrefValue?)] = []
    private var originalIndex: [String: Int] = [:]
    /// Values this stage moved out of the suite, in order.
    private(set) var moves: [MigrationMove] = []
    /// Whether ``original`` is kept (for a preview; a migration needs only the result).
    private let recordsChanges: Bool

    init(fromVersion: Int, toVersion: Int, suiteName: String, table: SuiteTable, recordsChanges: Bool) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.suiteName = suiteName
        self.table = table
        self.recordsChanges = recordsChanges
    }

    // MARK: Reading

    /// The suite's keys, sorted by code point (as in the file).
    public var keys: [String] {
        JSONWriter.sortedKeys(table.keys)
    }

    /// The value of `key`, or `nil` when the suite does not hold it.
    public func value(forKey key: String) -> PrefValue? {
        table[key]
    }

    /// The value of `key` as `Value` (strictly, as ``SuiteStore/value(forKey:as:)`` reads); `nil`
    /// when absent or of another type.
    public func value<Value: PrefValueConvertible>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        table[key].flatMap(Value.init(prefValue:))
    }

    /// The value of `key` decoded as `Value` (a `Codable` stored as nested JSON, as
    /// `@CodableUserDefault` stores it); `nil` when the key is absent.
    /// - Throws: the decoder's `DecodingError` when the value does not have `Value`'s shape.
    public func decode<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        guard let stored = table[key] else { return nil }
        return try PrefValueDecoder().decode(type, from: stored)
    }

    // MARK: Changing

    /// Sets `key` to `value` (`nil` removes it).
    /// - Throws: ``SuiteStoreError/invalidValue(key:reason:)`` for a value a suite cannot hold,
    ///   or for the schema version's own name; nothing is changed.
    public mutating func set<Value: PrefValueConvertible>(_ value: Value?, forKey key: String) throws(SuiteStoreError) {
        guard let stored = value?.prefValue else { return removeObject(forKey: key) }
        try SuiteStore.validate(stored, forKey: key)
        change(key, to: stored)
    }

    /// Stores `value` as nested JSON under `key`, as `@CodableUserDefault` does.
    /// - Throws: the encoder's `EncodingError`, or ``SuiteStoreError/invalidValue(key:reason:)``.
    public mutating func encode<Value: Encodable>(_ value: Value, forKey key: String) throws {
        try set(try PrefValueEncoder().encode(value), forKey: key)
    }

    /// Removes `key`.
    public mutating func removeObject(forKey key: String) {
        change(key, to: nil)
    }

    /// Carries out a lightweight change here, as a lightweight stage would.
    /// - Throws: ``MigrationError/stageFailed(suite:fromVersion:toVersion:reason:underlying:)``
    ///   when the change meets a value it cannot handle; the batch is as before the call.
    public mutating func apply(_ change: MigrationChange) throws(MigrationError) {
        if let problem = change.declarationProblem() { throw failure(problem) }
        switch change.operation {
        case .remove(let key):
            removeObject(forKey: key)
        case .rename(let key, let newKey, let conflict):
            guard let value = table[key] else { return }
            if conflict == .replace || table[newKey] == nil { self.change(newKey, to: value) }
            removeObject(forKey: key)
        case .convert(let key, let fromName, let toName, let unconvertible, let conversion):
            guard let value = table[key] else { return }
            switch conversion(value) {
            case .unchanged:
                return
            case .converted(let new):
                do {
                    try SuiteStore.validate(new, forKey: key)
                } catch {
                    throw failure("the conversion of '\(key)' to \(toName) gave a value a suite cannot hold (\(error))")
                }
                self.change(key, to: new)
            case .failed:
                switch unconvertible {
                case .fail:
                    throw failure("'\(key)' holds a \(value.kindName) that does not convert from \(fromName) to \(toName); to let such values go, declare the change with ifUnconvertible: .removeKey or .keep")
                case .removeKey:
                    removeObject(forKey: key)
                case .keep:
                    return
                }
            }
        case .moveToSuite(let key, let suite, let newKey, let conflict):
            guard let value = table[key] else { return }
            if suite == suiteName { throw failure("'\(key)' cannot move to suite '\(suite)', the suite being migrated; use a rename") }
            moves.append(MigrationMove(sourceKey: key, value: value, destination: .suite(name: suite, key: newKey), conflict: conflict))
            removeObject(forKey: key)
        case .moveToSecretStore(let key, let store, let account, let label, let conflict):
            guard let value = table[key] else { return }
            switch value {
            case .string, .data: break
            default:
                throw failure("'\(key)' holds a \(value.kindName); only a string or data can move into a secret store (convert it in an earlier change)")
            }
            moves.append(MigrationMove(
                sourceKey: key, value: value, destination: .secretStore(store, account: account, label: label), conflict: conflict))
            removeObject(forKey: key)
        case .moveCredentialsToSecretStore(let store, let label, let conflict):
            for key in JSONWriter.sortedKeys(table.keys) where !SchemaVersionMember.isReserved(key) {
                guard let value = table[key], CredentialRule.judge(key: key, value: value) != nil else { continue }
                let secret: PrefValue
                switch value {
                case .string, .data: secret = value
                case .int, .unsigned, .double, .array, .dictionary: secret = .string(value.credentialCandidate.text)
                case .bool, .date, .null: continue
                }
                guard !key.isEmpty, !key.utf8.contains(0) else { continue }
                moves.append(MigrationMove(sourceKey: key, value: secret, destination: .secretStore(store, account: key, label: label), conflict: conflict))
                removeObject(forKey: key)
            }
        }
    }

    private mutating func change(_ key: String, to value: PrefValue?) {
        if recordsChanges, originalIndex[key] == nil {
            originalIndex[key] = original.count
            original.append((key, table[key]))
        }
        if let value { table.updateValue(value, forKey: key) } else { table.removeValue(forKey: key) }
    }

    private func failure(_ reason: String) -> MigrationError {
        .stageFailed(suite: suiteName, fromVersion: fromVersion, toVersion: toVersion, reason: reason, underlying: nil)
    }
}

/// A value a stage moved out of the suite: where to, and what to do when something is there.
struct MigrationMove: Sendable {
    enum Destination: Sendable {
        case suite(name: String, key: String)
        case secretStore(any SecretStore, account: String, label: String?)
    }

    var sourceKey: String
    var value: PrefValue
    var destination: Destination
    var conflict: MigrationChange.Conflict
}
