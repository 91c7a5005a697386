extension SuiteStore {
    /// Opens the suite `suite` with its ``SuiteMigrations``, migrating an older file before it
    /// returns — so the first read already sees the current shape.
    ///
    /// ```swift
    /// let settings = try SuiteStore(suite: "com.rizq.app", migrations: SettingsSchema.current)
    /// ```
    ///
    /// - **Older file** (it records a version below the schema's; no version is version 0): the
    ///   stages from that version on run, under the suite's file lock, so that two processes
    ///   opening the suite at once migrate it once — the second finds it migrated. They run in
    ///   memory first; then values moved to a keyring are stored, values moved to other suites
    ///   are committed (``commit(_:)``), and last the suite file is replaced, with the new version
    ///   in the same atomic write: a crash leaves the old file or the migrated one, never a mix.
    ///   If anything fails, what was written is undone and ``MigrationError`` says why.
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
    /// - Throws: ``MigrationError``.
    public convenience init(suite: String, appID: String? = nil, root: String? = nil, migrations: SuiteMigrations) throws(MigrationError) {
        do {
            try self.init(suite: suite, appID: appID, root: root)
        } catch {
            throw .cannotOpen(error)
        }
        try Migrator.migrate(self, to: migrations)
    }

    /// ``standard``, migrated by `migrations` first: call it once, early, before anything reads the
    /// app's own suite (property wrappers read ``standard``, which is this same store).
    ///
    /// ```swift
    /// SuiteStore.configure(appID: "com.rizq.app")
    /// _ = try SuiteStore.standard(migrations: SettingsSchema.current)
    /// ```
    /// - Throws: ``MigrationError``; ``standard`` itself still works, unmigrated.
    public static func standard(migrations: SuiteMigrations) throws(MigrationError) -> SuiteStore {
        let store = standard
        if let error = store.openSuite.openError { throw .cannotOpen(error) }
        try Migrator.migrate(store, to: migrations)
        return store
    }

    /// The schema version of the suite's data: what the file records as this process last read
    /// or wrote it, 0 when it records none. After ``init(suite:appID:root:migrations:)`` it is the
    /// schema's version — or higher, when a newer app has migrated the file further.
    public var schemaVersion: Int {
        openSuite.memory.schemaVersion?.version ?? 0
    }

    /// The dry run of a migration: what opening `suite` with `migrations` would change, stage by
    /// stage, without writing anything — no file, no other suite, no keyring, and nothing
    /// opened or moved aside. Values that would move into a secret store are never shown.
    ///
    /// ```swift
    /// print(try SuiteStore.previewMigration(suite: "com.rizq.app", migrations: SettingsSchema.current))
    /// ```
    /// Custom stages run, on a copy of the suite's contents in memory.
    /// - Throws: ``MigrationError``: the name is invalid or the file unreadable or damaged,
    ///   its version member invalid, or a stage failed (a real migration would fail the same way).
    public static func previewMigration(
        suite: String, appID: String? = nil, root: String? = nil, migrations: SuiteMigrations
    ) throws(MigrationError) -> MigrationPreview {
        let appID = appID ?? AppIdentity.current
        let location: SuiteLocation
        do {
            location = try SuiteLocation(suiteName: suite, appID: appID, root: root ?? SuiteLocation.defaultRoot())
        } catch {
            throw .cannotOpen(error)
        }
        return try Migrator.preview(location: location, migrations: migrations, suiteName: suite)
    }
}

// The names of the fourth wave, before "schema" came to mean a suite's JSON Schema (PrefSchema).
extension SuiteStore {
    /// ``init(suite:appID:root:migrations:)``, by its earlier label.
    @available(*, deprecated, renamed: "init(suite:appID:root:migrations:)")
    public convenience init(suite: String, appID: String? = nil, root: String? = nil, schema: SuiteMigrations) throws(MigrationError) {
        try self.init(suite: suite, appID: appID, root: root, migrations: schema)
    }

    /// ``standard(migrations:)``, by its earlier label.
    @available(*, deprecated, renamed: "standard(migrations:)")
    public static func standard(schema: SuiteMigrations) throws(MigrationError) -> SuiteStore {
        try standard(migrations: schema)
    }

    /// ``previewMigration(suite:appID:root:migrations:)``, by its earlier label.
    @available(*, deprecated, renamed: "previewMigration(suite:appID:root:migrations:)")
    public static func previewMigration(
        suite: String, appID: String? = nil, root: String? = nil, schema: SuiteMigrations
    ) throws(MigrationError) -> MigrationPreview {
        try previewMigration(suite: suite, appID: appID, root: root, migrations: schema)
    }
}

/// ``SuiteMigrations``, by its earlier name.
@available(*, deprecated, renamed: "SuiteMigrations")
public typealias SuiteSchema = SuiteMigrations
/// ``MigrationChange``, by its earlier name.
@available(*, deprecated, renamed: "MigrationChange")
public typealias SchemaChange = MigrationChange
/// ``MigrationBatch``, by its earlier name.
@available(*, deprecated, renamed: "MigrationBatch")
public typealias SchemaBatch = MigrationBatch
/// ``MigrationError``, by its earlier name.
@available(*, deprecated, renamed: "MigrationError")
public typealias SchemaMigrationError = MigrationError
/// ``MigrationPreview``, by its earlier name.
@available(*, deprecated, renamed: "MigrationPreview")
public typealias SchemaMigrationPreview = MigrationPreview
