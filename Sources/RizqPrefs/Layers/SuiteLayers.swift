/// A suite's layers other than the user's own, merged into what a read needs: the forced values
/// (managed), the fallbacks under the user's values (an administrator's defaults over the
/// schema's), and the schema's checks — each a table probed with the hash the read computed
/// once. Built by ``LayerReader``; held by the suite's ``SuiteMemory`` (absent when there is no
/// layer file at all, so that a read pays one branch for the feature). Immutable, and a class so
/// that a read takes it with one reference, not a copy of its tables.
///
/// A read of `key` (``effective(_:hash:user:)``), then the registered defaults:
///
/// ```
/// forced[key] ?? (user value, when the schema allows it) ?? fallback[key] ?? registered[key]
/// ```
final class SuiteLayers: Sendable {
    /// The suite's name, for the log.
    let suiteName: String
    /// The managed layer: forced values.
    let forced: SuiteTable
    /// An administrator's defaults over the schema's: where the user has no value.
    let fallback: SuiteTable
    /// The file each forced value comes from.
    let forcedSources: [String: String]
    /// The layer and file each fallback comes from.
    let fallbackSources: [String: ValueSource]
    /// The installed schema, and where it is.
    let schema: PrefSchema?
    let schemaPath: String?
    /// The schema's members that check values (a type, a range, choices).
    let checks: [String: PrefSchema.Property]
    /// What was read, and what was left out.
    let report: LayerReport

    init(
        suiteName: String, managed: (values: [String: PrefValue], sources: [String: String]),
        defaults: (values: [String: PrefValue], sources: [String: String]), schema: (schema: PrefSchema, path: String)?, report: LayerReport
    ) {
        self.suiteName = suiteName
        self.schema = schema?.schema
        schemaPath = schema?.path
        var report = report
        var checks: [String: PrefSchema.Property] = [:]
        var forced = SuiteTable(), fallback = SuiteTable()
        var forcedSources: [String: String] = [:], fallbackSources: [String: ValueSource] = [:]
        if let schema {
            for (key, property) in schema.schema.properties {
                if property.constrainsValues { checks[key] = property }
                guard let value = property.defaultValue else { continue }
                if let problem = property.problem(with: value) {
                    report.skipped.append(.init(layer: .schema, path: schema.path, reason: "the default of '\(key)' breaks its own schema (\(problem)): it is left out"))
                    continue
                }
                fallback.updateValue(value, forKey: key)
                fallbackSources[key] = ValueSource(layer: .schema, path: schema.path)
            }
        }
        for (key, value) in defaults.values {
            let path = defaults.sources[key]
            if let problem = checks[key]?.problem(with: value) {
                // An administrator's default the schema forbids would be refused as a write: left out.
                report.skipped.append(.init(layer: .defaults, path: path ?? "", reason: "its value for '\(key)' breaks the suite's schema (\(problem)): that value is left out"))
                continue
            }
            fallback.updateValue(value, forKey: key)
            fallbackSources[key] = ValueSource(layer: .defaults, path: path)
        }
        for (key, value) in managed.values {
            // Forced all the same: the administrator's lock is the point; doctor names the clash.
            if let problem = checks[key]?.problem(with: value) {
                report.skipped.append(.init(layer: .managed, path: managed.sources[key] ?? "", reason: "its forced value for '\(key)' breaks the suite's schema (\(problem)); it is forced all the same"))
            }
            forced.updateValue(value, forKey: key)
            forcedSources[key] = managed.sources[key]
        }
        self.forced = forced
        self.fallback = fallback
        self.forcedSources = forcedSources
        self.fallbackSources = fallbackSources
        self.checks = checks
        self.report = report
    }

    /// Whether no layer holds anything (the suite then reads as if there were no layers).
    var isEmpty: Bool { forced.isEmpty && fallback.isEmpty && checks.isEmpty }

    /// Every key a layer names: what a change of layers may change.
    var keys: Set<String> {
        var keys = Set(checks.keys)
        for (key, _) in forced { keys.insert(key) }
        for (key, _) in fallback { keys.insert(key) }
        return keys
    }

    // MARK: Reading

    /// The value a reader sees for `key` (whose ``SuiteTable/hash(_:)`` is `hash`) when the user's
    /// layer holds `user`, before the registered defaults: forced, else the user's value when the
    /// schema allows it, else the fallback.
    @inline(__always)
    func effective(_ key: String, hash: Int, user: PrefValue?) -> PrefValue? {
        if !forced.isEmpty, let value = forced[key, hash: hash] { return value }
        if let user, checks.isEmpty || allows(user, forKey: key) { return user }
        return fallback.isEmpty ? nil : fallback[key, hash: hash]
    }

    /// ``effective(_:hash:user:)`` computing the hash.
    func effective(_ key: String, user: PrefValue?) -> PrefValue? {
        effective(key, hash: SuiteTable.hash(key), user: user)
    }

    /// Whether the schema allows the user's `value` for `key`; when it does not, the value reads
    /// as the default, stays on disk, and is logged once.
    func allows(_ value: PrefValue, forKey key: String) -> Bool {
        guard let property = checks[key], let problem = property.problem(with: value) else { return true }
        OnceWarnings.warn(
            "schema\u{0}\(suiteName)\u{0}\(key)",
            "stored value of key '\(key)' breaks the suite's schema (\(problem); \(schemaPath ?? "")): it reads as the default, and stays on disk as it is until a valid value is written",
            suite: suiteName)
        return false
    }

    /// Where `key`'s value comes from when the user's layer holds `user`, before the registered
    /// defaults (`nil`: from none of these layers).
    func source(_ key: String, user: PrefValue?, userPath: String) -> ValueSource? {
        if forced[key] != nil { return ValueSource(layer: .managed, path: forcedSources[key]) }
        if let user, allows(user, forKey: key) { return ValueSource(layer: .user, path: userPath) }
        if fallback[key] != nil { return fallbackSources[key] }
        return nil
    }

    /// The file that forces `key`, or `nil` when it is not forced.
    func lock(_ key: String) -> String? {
        forced[key] == nil ? nil : forcedSources[key] ?? "the managed layer"
    }
}
