import Logging
import RizqJSON

/// A suite's layers — an administrator's forced values and defaults, the installed schema — as
/// the app sees them (``ValueSource`` lists the layers and where each is read from).
extension SuiteStore {
    /// Whether an administrator forced the value of `key` (the managed layer): every reader gets
    /// the forced value, and no write of this suite changes what is read. Foundation's name, for
    /// Apple's managed preferences; dconf calls it a lock, KConfig an immutable key. A settings
    /// screen greys out such a key.
    ///
    /// ```swift
    /// toggle.isEnabled = !store.objectIsForced(forKey: "update_channel")
    /// ```
    public func objectIsForced(forKey key: String) -> Bool {
        openSuite.memory.layers.inForce?.lock(key) != nil
    }

    /// Whether `key` is forced in the suite named `domain` (this suite, or another suite of the
    /// same app); `false` when that suite cannot be opened.
    public func objectIsForced(forKey key: String, inDomain domain: String) -> Bool {
        let target = domain == suiteName ? self : try? sibling(named: domain)
        return target?.objectIsForced(forKey: key) ?? false
    }

    /// Where the value `key` reads as comes from: its layer and file; `nil` when no layer has it
    /// (the key reads as `nil`). A stored value the schema forbids is not a source: the key reads
    /// as the next layer's value.
    public func source(forKey key: String) -> ValueSource? {
        if openSuite.degraded.load(ordering: .relaxed) { openSuite.refreshIfStale() }
        let user = entries[key]
        if let layers = openSuite.memory.layers.inForce, let source = layers.source(key, user: user, userPath: location.path) {
            return source
        }
        if openSuite.memory.layers.inForce == nil, user != nil { return ValueSource(layer: .user, path: location.path) }
        return openSuite.memory.valuesAndDefaults.defaults[key] == nil ? nil : ValueSource(layer: .registered, path: nil)
    }

    /// The suite's installed schema (``PrefSchema``: `<dir>/rizq-prefs/schemas/…` under
    /// `$XDG_DATA_HOME` or `$XDG_DATA_DIRS`), as last read; `nil` when none is installed or it
    /// could not be read (`rizq-prefs doctor` says why).
    public var installedSchema: PrefSchema? {
        openSuite.memory.layers.lastRead?.schema
    }

    /// Where ``installedSchema`` was read from.
    public var installedSchemaPath: String? {
        openSuite.memory.layers.lastRead?.schemaPath
    }

    /// What the layers were read from and what was left out, as last read: what `doctor` shows.
    package var layerReport: LayerReport {
        openSuite.memory.layers.lastRead?.report ?? LayerReport()
    }

    /// Throws when a write of `value` (`nil`: a removal) to `key` must be refused: the key is
    /// forced (unless `refusingForced` is false: Foundation's non-throwing writes go to the user's
    /// layer, with one notice), or the schema forbids the value. The one check of the layers on
    /// every write path (``store(_:forKey:refusingForced:)``, batches, imports, migrations).
    /// - Throws: ``SuiteStoreError/forced(key:path:)`` or ``SuiteStoreError/notAllowed(key:reason:)``.
    package func checkLayers(_ value: PrefValue?, forKey key: String, refusingForced: Bool = true) throws(SuiteStoreError) {
        guard openSuite.layersInForce.load(ordering: .relaxed), let layers = openSuite.memory.layers.inForce else { return }
        if let lock = layers.lock(key) {
            if refusingForced { throw .forced(key: key, path: lock) }
            OnceWarnings.warn(
                "forced-write\u{0}\(location.path)\u{0}\(key)",
                "key '\(key)' is forced by an administrator (\(lock)): the value written goes to the user's layer and reads only once the lock goes; every read returns the forced value meanwhile",
                suite: suiteName)
        }
        if let value, let problem = layers.checks[key]?.problem(with: value) {
            throw .notAllowed(key: key, reason: problem + " (the suite's schema, \(layers.schemaPath ?? "installed"))")
        }
    }
}

extension Key {
    /// Whether an administrator forced the key's value (``SuiteStore/objectIsForced(forKey:)``):
    /// a settings screen greys it out. Also `$property.isForced` of the property wrappers.
    public var isForced: Bool {
        store.objectIsForced(forKey: name)
    }

    /// Where the key's value comes from (``SuiteStore/source(forKey:)``); `nil`: it reads as its
    /// default.
    public var source: ValueSource? {
        store.source(forKey: name)
    }

    /// Stores `value`, or throws why it cannot be: a value outside the key's declared range or
    /// choices or the suite's schema, a key an administrator forced, a value a suite cannot hold.
    /// (`value`'s setter logs these instead, and writes a forced key's value under the lock, as
    /// Foundation does.)
    ///
    /// ```swift
    /// do { try Key.volume.put(150) } catch { print(error) }   // "150 is not allowed: the key takes an integer from 0 to 100 …"
    /// ```
    /// - Throws: ``SuiteStoreError/notAllowed(key:reason:)``, ``SuiteStoreError/forced(key:path:)``
    ///   or ``SuiteStoreError/invalidValue(key:reason:)``; nothing is written.
    public func put(_ value: Value) throws(SuiteStoreError) {
        try write(value, to: store, refusingForced: true)
    }
}

extension SuiteStore {
    /// Every key any layer names — the suite file's, the forced and default ones, and those the
    /// installed schema declares — sorted: what `rizq-prefs list` lists.
    package var layeredKeys: [String] {
        var keys = Set(self.keys)
        if let layers = openSuite.memory.layers.lastRead {
            keys.formUnion(layers.keys)
            if let schema = layers.schema { keys.formUnion(schema.properties.keys) }
        }
        return JSONWriter.sortedKeys(Array(keys))
    }
}

extension SuiteStore {
    /// The stored values the installed schema forbids (each reads as the default, and stays on
    /// disk): key and why, sorted by key.
    package var valuesBreakingSchema: [(key: String, problem: String)] {
        guard let schema = installedSchema else { return [] }
        return entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.compactMap { key, value in
            schema.problem(with: value, forKey: key).map { (key, $0) }
        }
    }
}
