extension SuiteStore {
    /// Opens the suite `suite` with its ``SuiteSchema``, migrating an older file before it
    /// returns — so the first read already sees the current shape.
    ///
    /// ```swift
    /// let settings = try SuiteStore(suite: "com.rizq.app", schema: SettingsSchema.current)
    /// ```
    ///
    /// - **Older file** (it records a version below the schema's; no version is version 0): the
    ///   stages from that version on run, under the suite's file lock, so that two processes
    ///   opening the suite at once migrate it once — the second finds it migrated. They run in
    ///   memory first; then values moved to a keyring are stored, values moved to other suites
    ///   are committed (``commit(_:)``), and last the suite file is replaced, with the new version
    ///   in the same atomic write: a crash leaves the old file or the migrated one, never a mix.
    ///   If anything fails, what was written is undone and ``SchemaMigrationError`` says why.
    ///   (A crash between the keyring or other suites and the file leaves them written and the
    ///   file old: the next open runs the stages again, and moves find their values there
    ///   already.)
    /// - **No file**: the suite starts at the schema's version without running stages; the file
    ///   is created holding only the version.
    /// - **Same version**: nothing happens (no lock is taken once this process knows the file is
    ///   current).
    /// - **Newer file** (written by a newer version of the app): never migrated down, never
    ///   rewritten in this app's older shape. It is read as it is; this app's writes merge into it
    ///   key by key, as every write does, and keep its version. Keys the newer schema dropped
    ///   or renamed are not brought back unless this app writes them. The situation is logged
    ///   once (a warning, label `RizqPrefs`) and ``schemaVersion`` reports the file's version.
    ///
    /// This process's other instances of the suite share what it knows: they see the migrated
    /// values too.
    /// - Throws: ``SchemaMigrationError``.
    public convenience init(suite: String, appID: String? = nil, root: String? = nil, schema: SuiteSchema) throws(SchemaMigrationError) {
        do {
            try self.init(suite: suite, appID: appID, root: root)
        } catch {
            throw .cannotOpen(error)
        }
        try SchemaMigrator.migrate(self, to: schema)
    }

    /// ``standard``, migrated to `schema` first: call it once, early, before anything reads the
    /// app's own suite (property wrappers read ``standard``, which is this same store).
    ///
    /// ```swift
    /// SuiteStore.configure(appID: "com.rizq.app")
    /// _ = try SuiteStore.standard(schema: SettingsSchema.current)
    /// ```
    /// - Throws: ``SchemaMigrationError``; ``standard`` itself still works, unmigrated.
    public static func standard(schema: SuiteSchema) throws(SchemaMigrationError) -> SuiteStore {
        let store = standard
        if let error = store.openSuite.openError { throw .cannotOpen(error) }
        try SchemaMigrator.migrate(store, to: schema)
        return store
    }

    /// The schema version of the suite's data: what the file records as this process last read
    /// or wrote it, 0 when it records none. After ``init(suite:appID:root:schema:)`` it is the
    /// schema's version — or higher, when a newer app has migrated the file further.
    public var schemaVersion: Int {
        openSuite.memory.schemaVersion?.version ?? 0
    }

    /// The dry run of a migration: what opening `suite` with `schema` would change, stage by
    /// stage, without writing anything — no file, no other suite, no keyring, and nothing
    /// opened or moved aside. Values that would move into a secret store are never shown.
    ///
    /// ```swift
    /// print(try SuiteStore.previewMigration(suite: "com.rizq.app", schema: SettingsSchema.current))
    /// ```
    /// Custom stages run, on a copy of the suite's contents in memory.
    /// - Throws: ``SchemaMigrationError``: the name is invalid or the file unreadable or damaged,
    ///   its version member invalid, or a stage failed (a real migration would fail the same way).
    public static func previewMigration(
        suite: String, appID: String? = nil, root: String? = nil, schema: SuiteSchema
    ) throws(SchemaMigrationError) -> SchemaMigrationPreview {
        let appID = appID ?? AppIdentity.current
        let location: SuiteLocation
        do {
            location = try SuiteLocation(suiteName: suite, appID: appID, root: root ?? SuiteLocation.defaultRoot())
        } catch {
            throw .cannotOpen(error)
        }
        return try SchemaMigrator.preview(location: location, schema: schema, suiteName: suite)
    }
}
