import Foundation

/// One lightweight change of a ``MigrationStage``: data that says what happens to a key, which
/// RizqPrefs carries out (SwiftData infers these from the models; a suite has no models, so
/// they are written out).
///
/// | change | what it does | key absent |
/// | --- | --- | --- |
/// | ``rename(_:to:ifTargetExists:)`` | the value moves to the new key | nothing |
/// | ``remove(_:)`` | the key goes | nothing |
/// | ``convert(_:from:to:ifUnconvertible:_:)`` | a `From` value becomes a `To` value (`"05"` → `5`); one that is a `To` already stays | nothing |
/// | ``move(_:toSuite:as:ifTargetExists:)`` | the value moves to another suite of the same app (or an app-group suite) | nothing |
/// | ``moveToSecretStore(_:_:account:label:ifTargetExists:)`` | the value (a string or data) moves into a keyring, never through a log | nothing |
/// | ``moveCredentialsToSecretStore(_:label:ifTargetExists:)`` | every key the credential rule judges a credential moves into a keyring, each under its key as account | nothing |
///
/// Changes run in the order given, each on the suite as the previous one left it.
public struct MigrationChange: Sendable {
    /// What happens when the target of a rename or a move already holds a value.
    public enum Conflict: Sendable, Equatable {
        /// The moved value replaces it (the default: the old key is what the app was using).
        case replace
        /// The value there stays; the old key is removed all the same.
        case keepExisting
    }

    /// What happens to a value that ``convert(_:from:to:ifUnconvertible:_:)`` cannot convert:
    /// neither a `From` nor a `To`, or a `From` the converter returns `nil` for.
    public enum Unconvertible: Sendable, Equatable {
        /// The migration stops with ``MigrationError/stageFailed(suite:fromVersion:toVersion:reason:underlying:)``
        /// and nothing changes (the default: no value is lost unseen).
        case fail
        /// The key is removed (the app then reads its default).
        case removeKey
        /// The value stays as it is.
        case keep
    }

    enum Operation: Sendable {
        case rename(key: String, newKey: String, conflict: Conflict)
        case remove(key: String)
        case convert(key: String, fromName: String, toName: String, unconvertible: Unconvertible, conversion: @Sendable (PrefValue) -> Conversion)
        case moveToSuite(key: String, suite: String, newKey: String, conflict: Conflict)
        case moveToSecretStore(key: String, store: any SecretStore, account: String, label: String?, conflict: Conflict)
        case moveCredentialsToSecretStore(store: any SecretStore, label: String?, conflict: Conflict)
    }

    /// What a conversion made of a value.
    enum Conversion {
        /// The value is a `To` already.
        case unchanged
        case converted(PrefValue)
        /// Neither a `From` nor a `To`, or the converter gave `nil`.
        case failed
    }

    let operation: Operation

    /// Renames `key` to `newKey`: the value moves, `key` goes.
    public static func rename(_ key: String, to newKey: String, ifTargetExists conflict: Conflict = .replace) -> MigrationChange {
        MigrationChange(operation: .rename(key: key, newKey: newKey, conflict: conflict))
    }

    /// Removes `key`.
    public static func remove(_ key: String) -> MigrationChange {
        MigrationChange(operation: .remove(key: key))
    }

    /// Changes the type of `key`'s value: a value that reads as `From` (strictly, as
    /// ``SuiteStore/value(forKey:as:)`` reads) is replaced by what `converter` makes of it; a
    /// value that reads as `To` already is left alone, so that running the stage on a value
    /// already converted changes nothing.
    ///
    /// ```swift
    /// .convert("daily_goal", from: String.self, to: Int.self) { Int($0) }           // "05" → 5
    /// .convert("volume", from: Int.self, to: Double.self) { Double($0) / 100 }      // 80 → 0.8
    /// ```
    /// `ifUnconvertible` says what happens to anything else (default: the migration fails and
    /// nothing changes).
    public static func convert<From: PrefValueConvertible, To: PrefValueConvertible>(
        _ key: String, from: From.Type, to: To.Type, ifUnconvertible: Unconvertible = .fail,
        _ converter: @escaping @Sendable (From) -> To?
    ) -> MigrationChange {
        MigrationChange(operation: .convert(
            key: key, fromName: "\(From.self)", toName: "\(To.self)", unconvertible: ifUnconvertible,
            conversion: { value in
                if To(prefValue: value) != nil { return .unchanged }
                guard let old = From(prefValue: value), let new = converter(old) else { return .failed }
                return .converted(new.prefValue)
            }))
    }

    /// Moves `key` to the suite named `suite` (another suite of the same app, or an app-group
    /// suite `group.…`), under `newKey` (default: the same key). That suite is written with
    /// ``SuiteStore/commit(_:)`` before this one, and reverted if anything later fails.
    public static func move(_ key: String, toSuite suite: String, as newKey: String? = nil, ifTargetExists conflict: Conflict = .replace) -> MigrationChange {
        MigrationChange(operation: .moveToSuite(key: key, suite: suite, newKey: newKey ?? key, conflict: conflict))
    }

    /// Moves `key`'s value — a string (stored as text) or data — into `store` under `account`
    /// (default: the key), with `label` (default: the store's). The keyring is written first;
    /// if anything later fails, the secret that was there is put back (or the new one deleted).
    /// The value never appears in a log line, an error or a preview. Another type of value
    /// fails the migration.
    ///
    /// `store` is any `SecretStore`: `RizqSecrets`' stores, or `InMemorySecretStore` in an
    /// app's tests (RizqPrefs itself links no libsecret).
    ///
    /// ```swift
    /// import RizqPrefs
    /// import RizqSecrets          // SecretServiceStore
    ///
    /// let keyring = SecretServiceStore(service: "com.rizq.app")
    /// .lightweight(from: 2, to: 3, [.moveToSecretStore("auth_token", keyring)])
    /// ```
    public static func moveToSecretStore(
        _ key: String, _ store: any SecretStore, account: String? = nil, label: String? = nil,
        ifTargetExists conflict: Conflict = .replace
    ) -> MigrationChange {
        MigrationChange(operation: .moveToSecretStore(key: key, store: store, account: account ?? key, label: label, conflict: conflict))
    }

    /// Moves every key whose value the credential rule judges a credential — the rule import,
    /// device sync and fleet suites use: a token's shape (a JWT, `ghp_…`, `sk_live_…`, a PEM key),
    /// JSON with credential fields, a key named like one (`password`, `db.password`, `card.pin`;
    /// never a boolean or a date) — into `store`, each under its key as the account, with
    /// `label`. A string or data moves as it is; a number moves as its digits and an array or
    /// dictionary as its JSON text (a secret store holds text or bytes). As with
    /// ``moveToSecretStore(_:_:account:label:ifTargetExists:)``, the keyring is written first and
    /// every secret is put back (or removed) if anything later fails; no value is logged.
    ///
    /// For an app that kept tokens in its preferences before it knew better:
    ///
    /// ```swift
    /// .lightweight(from: 3, to: 4, [.moveCredentialsToSecretStore(ChainedSecretStore(service: "com.rizq.app"))])
    /// ```
    public static func moveCredentialsToSecretStore(
        _ store: any SecretStore, label: String? = nil, ifTargetExists conflict: Conflict = .replace
    ) -> MigrationChange {
        MigrationChange(operation: .moveCredentialsToSecretStore(store: store, label: label, conflict: conflict))
    }

    /// Why this change cannot work as declared; `nil` when it can.
    func declarationProblem() -> String? {
        let keys: [String]
        switch operation {
        case .rename(let key, let newKey, _):
            if key == newKey { return "renaming '\(key)' to itself changes nothing; remove the change" }
            keys = [key, newKey]
        case .remove(let key), .convert(let key, _, _, _, _):
            keys = [key]
        case .moveToSuite(let key, let suite, let newKey, _):
            if let problem = SuiteLocation.problem(withName: suite) {
                return "'\(key)' cannot move to suite '\(suite)', which is not a valid suite name: \(problem)"
            }
            keys = [key, newKey]
        case .moveToSecretStore(let key, _, let account, _, _):
            if account.isEmpty || account.utf8.contains(0) {
                return "'\(key)' cannot move to the secret store under account '\(account)': an account name must not be empty or hold a NUL"
            }
            keys = [key]
        case .moveCredentialsToSecretStore:
            keys = []
        }
        if let reserved = keys.first(where: SchemaVersionMember.isReserved) {
            return "'\(reserved)' is the file's schema version, not a key; a migration sets it by itself"
        }
        return nil
    }
}
