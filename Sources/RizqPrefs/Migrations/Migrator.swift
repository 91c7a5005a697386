import Foundation
import Logging
import Synchronization

/// Runs a ``SuiteMigrations`` on one suite: the stages in memory, then what they moved out (the
/// keyring first, then other suites, each one commit), then the suite itself — its migrated
/// table and the new version in one atomic replace — all under the suite's file lock
/// (``OpenSuite/migrate(_:)``). A failure anywhere undoes what was written.
struct Migrator {
    let migrations: SuiteMigrations
    /// The suite being migrated.
    let suiteName: String

    /// What the stages made of the suite, in memory.
    struct Outcome {
        /// The suite after the last stage.
        var table: SuiteTable
        /// What each stage changed.
        var stages: [StageRecord] = []
        /// Every value moved out of the suite, in order.
        var moves: [MigrationMove] { stages.flatMap(\.moves) }
    }

    /// One stage's changes: each key's value before the stage and after it (when recorded), and
    /// the moves.
    struct StageRecord {
        var fromVersion: Int
        var toVersion: Int
        var changes: [(key: String, before: PrefValue?, after: PrefValue?)]
        var moves: [MigrationMove]
    }

    /// Files newer than the app's schema, already reported by this process.
    private static let reportedNewer = Mutex<Set<String>>([])

    // MARK: Running the stages

    /// Runs the stages that bring `table`, at `storedVersion`, up to the schema's version; with
    /// `recording`, each stage's record lists what it changed (for a preview). Nothing outside
    /// memory is touched.
    func runStages(on table: SuiteTable, from storedVersion: Int, recording: Bool) throws(MigrationError) -> Outcome {
        var outcome = Outcome(table: table)
        for stage in migrations.stages(from: storedVersion) {
            var batch = MigrationBatch(
                fromVersion: stage.fromVersion, toVersion: stage.toVersion, suiteName: suiteName, table: outcome.table,
                recordsChanges: recording)
            // The batch is the only copy: changes made through it do not copy the table.
            outcome.table = SuiteTable()
            do {
                switch stage.work {
                case .lightweight(let changes):
                    for change in changes { try batch.apply(change) }
                case .custom(let migrate):
                    try migrate(&batch)
                }
            } catch let error as MigrationError {
                throw error
            } catch {
                throw .stageFailed(
                    suite: suiteName, fromVersion: stage.fromVersion, toVersion: stage.toVersion,
                    reason: "the stage threw \(error)", underlying: error)
            }
            let changes = batch.original.compactMap { key, before -> (key: String, before: PrefValue?, after: PrefValue?)? in
                let after = batch.table[key]
                return after == before ? nil : (key, before, after)
            }
            outcome.stages.append(StageRecord(fromVersion: stage.fromVersion, toVersion: stage.toVersion, changes: changes, moves: batch.moves))
            outcome.table = batch.table
        }
        return outcome
    }

    // MARK: Migrating

    /// Brings `store`'s file up to the schema's version, if it is older; see
    /// ``SuiteStore/init(suite:appID:root:migrations:)``.
    static func migrate(_ store: SuiteStore, to migrations: SuiteMigrations) throws(MigrationError) {
        try Migrator(migrations: migrations, suiteName: store.suiteName).migrate(store)
    }

    private func migrate(_ store: SuiteStore) throws(MigrationError) {
        // Already there (the usual case, once migrated): no lock, no second read.
        if let known = store.openSuite.memory.schemaVersion, known.version >= migrations.version, store.openSuite.openError == nil {
            if known.version > migrations.version {
                reportNewer(known, store)
            } else {
                reportOtherApp(known, store, ran: false)
            }
            return
        }
        let outcome: Result<Void, MigrationError>
        do {
            outcome = try store.openSuite.migrate { input, write in
                Result { () throws(MigrationError) in try migrate(store, input, write) }
            }
        } catch {
            throw .cannotOpen(error)
        }
        try outcome.get()
    }

    /// Under the file lock: decides, runs the stages, writes.
    private func migrate(_ store: SuiteStore, _ input: OpenSuite.MigrationInput, _ write: OpenSuite.MigrationWriter) throws(MigrationError) {
        guard input.exists else {
            // A fresh suite starts at the schema's version: no stage runs, and the file records
            // the version at once, so that a write by an older app cannot make it version 0.
            do {
                try write(input.entries, MigrationMark(version: migrations.version, app: store.appID))
            } catch {
                throw .cannotOpen(error)
            }
            return
        }
        let stored = input.schemaVersion?.version ?? 0
        if let mark = input.schemaVersion, stored > migrations.version { return reportNewer(mark, store) }
        guard stored < migrations.version else {
            if let mark = input.schemaVersion { reportOtherApp(mark, store, ran: false) }
            return
        }
        if let mark = input.schemaVersion { reportOtherApp(mark, store, ran: true) }
        if let member = input.entries[SchemaVersionMember.key] {
            throw .invalidStoredVersion(path: store.location.path, found: member.kindName)
        }
        let outcome = try runStages(on: input.entries, from: stored, recording: false)
        var written = WrittenParts()
        do {
            try written.moveSecrets(outcome.moves)
            try written.moveToSuites(outcome.moves, from: store)
            try write(outcome.table, MigrationMark(version: migrations.version, app: store.appID))
        } catch {
            throw .writeFailed(
                suite: store.suiteName, fromVersion: stored, toVersion: migrations.version, underlying: error,
                rollbackProblems: written.undo())
        }
        Logger.rizqPrefs.debug(
            "migrated suite from schema version \(stored) to \(migrations.version)",
            metadata: ["suite": "\(store.suiteName)", "path": "\(store.location.path)"])
    }

    /// Logs, once per file and version in this process, that the file is newer than the schema.
    private func reportNewer(_ mark: MigrationMark, _ store: SuiteStore) {
        let stored = mark.version
        let id = "\(store.location.path)\u{0}\(stored)\u{0}\(migrations.version)"
        guard Self.reportedNewer.withLock({ $0.insert(id).inserted }) else { return }
        let whose = mark.app.map { $0 == store.appID ? "" : " (migrated there by the schema of app '\($0)', not this app's '\(store.appID)')" } ?? ""
        Logger.rizqPrefs.warning(
            "suite file has schema version \(stored)\(whose), newer than this app's schema (version \(migrations.version)): it is read as it is and never migrated down; this app's writes merge into it key by key and keep version \(stored)",
            metadata: ["suite": "\(store.suiteName)", "path": "\(store.location.path)"])
    }

    /// Logs, once per file, version and app in this process, that another app's schema migrated
    /// the file (two apps with their own schemas on one app-group suite): this app's stages did
    /// not run on it (`ran` false: the file is at this schema's version already) or ran over data
    /// another schema shaped (`ran` true). Silent when the file records no app (an earlier
    /// release) or this one.
    private func reportOtherApp(_ mark: MigrationMark, _ store: SuiteStore, ran: Bool) {
        guard let app = mark.app, app != store.appID else { return }
        let id = "\(store.location.path)\u{0}\(mark.version)\u{0}\(migrations.version)\u{0}\(app)\u{0}\(ran)"
        guard Self.reportedNewer.withLock({ $0.insert(id).inserted }) else { return }
        let what = ran
            ? "this app's ('\(store.appID)') stages from version \(mark.version) to \(migrations.version) ran on it now, over data another schema shaped"
            : "this app's ('\(store.appID)') schema is at version \(migrations.version) too, so none of its stages ran on it"
        Logger.rizqPrefs.warning(
            "suite file's data is at schema version \(mark.version) of the schema of app '\(app)'; \(what). If the two apps declare the same schema, nothing is wrong; if not, give each app a suite of its own, or share one schema declaration between them",
            metadata: ["suite": "\(store.suiteName)", "path": "\(store.location.path)"])
    }

    // MARK: Previewing

    /// What ``migrate()`` would do, from the file as it is now; writes nothing, opens no suite.
    static func preview(location: SuiteLocation, migrations: SuiteMigrations, suiteName: String) throws(MigrationError) -> MigrationPreview {
        let contents: SuiteFile.Contents
        do {
            contents = try SuiteFile(location: location).read()
        } catch {
            throw .cannotOpen(error)
        }
        func preview(stored: Int, _ outcome: MigrationPreview.Outcome, _ stages: [MigrationPreview.Stage] = []) -> MigrationPreview {
            MigrationPreview(
                suiteName: location.suiteName, path: location.path, storedVersion: stored, schemaVersion: migrations.version,
                outcome: outcome, stages: stages)
        }
        switch contents {
        case .missing:
            return preview(stored: 0, .startsFresh)
        case .damaged(let reason, _):
            throw .cannotOpen(.unreadable(path: location.path, reason: "it is damaged (\(reason)); opening the suite would move it aside and start it empty"))
        case .entries(let entries, _, _, let version, _):
            let stored = version?.version ?? 0
            if stored > migrations.version { return preview(stored: stored, .newerThanSchema) }
            if stored == migrations.version { return preview(stored: stored, .upToDate) }
            if let member = entries[SchemaVersionMember.key] {
                throw .invalidStoredVersion(path: location.path, found: member.kindName)
            }
            let outcome = try Migrator(migrations: migrations, suiteName: suiteName).runStages(on: entries, from: stored, recording: true)
            return preview(stored: stored, .migrates, previewStages(outcome))
        }
    }

    /// The outcome's stages as a preview shows them: values moved into a secret store, in any
    /// stage, are never shown.
    private static func previewStages(_ outcome: Outcome) -> [MigrationPreview.Stage] {
        var secrets: Set<PrefValue> = []
        for move in outcome.moves {
            if case .secretStore = move.destination { secrets.insert(move.value) }
        }
        func shown(_ value: PrefValue?) -> MigrationPreview.Value {
            guard let value else { return .absent }
            return secrets.contains(value) ? .secret : .value(value)
        }
        return outcome.stages.map { stage in
            var movedTo: [String: MigrationPreview.Destination] = [:]
            for move in stage.moves {
                switch move.destination {
                case .suite(let name, let key): movedTo[move.sourceKey] = .suite(name: name, key: key)
                case .secretStore(let store, let account, _): movedTo[move.sourceKey] = .secretStore(service: store.service, account: account)
                }
            }
            let changes = stage.changes.map { change in
                MigrationPreview.Change(
                    key: change.key, before: shown(change.before), after: shown(change.after),
                    movedTo: change.after == nil ? movedTo[change.key] : nil)
            }
            return MigrationPreview.Stage(fromVersion: stage.fromVersion, toVersion: stage.toVersion, changes: changes)
        }
    }
}

/// What a migration writes outside its own suite — the keyring first, then other suites — each
/// recorded in one ``UndoLog`` as it is written, so that a failure can undo it.
private struct WrittenParts {
    var log = UndoLog()

    /// Stores the values moved into secret stores, in order.
    mutating func moveSecrets(_ moves: [MigrationMove]) throws {
        for move in moves {
            guard case .secretStore(let store, let account, let label) = move.destination else { continue }
            let previous = try store.secretBytes(forAccount: account)
            if previous != nil, move.conflict == .keepExisting { continue }
            let bytes: Data
            let isText: Bool
            switch move.value {
            case .string(let text): (bytes, isText) = (Data(text.utf8), true)
            case .data(let data): (bytes, isText) = (data, false)
            default: continue  // refused when the stage ran
            }
            do {
                try store.storeSecret(bytes, isText: isText, forAccount: account, label: label)
            } catch {
                // A time-out is only the caller giving up: the store may still keep it.
                if case .timedOut = error { log.recordSecretWrite(to: store, account: account, previous: previous, uncertain: true) }
                throw error
            }
            log.recordSecretWrite(to: store, account: account, previous: previous)
        }
    }

    /// Writes the values moved to other suites: one commit per suite, in the order the suites
    /// were first named.
    mutating func moveToSuites(_ moves: [MigrationMove], from store: SuiteStore) throws {
        var order: [String] = []
        var bySuite: [String: [(key: String, move: MigrationMove)]] = [:]
        for move in moves {
            guard case .suite(let name, let key) = move.destination else { continue }
            if bySuite[name] == nil { order.append(name) }
            bySuite[name, default: []].append((key, move))
        }
        for name in order {
            let target = try store.sibling(named: name)
            let commit = try target.commit { batch in
                for (key, move) in bySuite[name] ?? [] {
                    if move.conflict == .keepExisting, batch.value(forKey: key) != nil { continue }
                    try batch.set(move.value, forKey: key)
                }
            }
            log.record(commit)
        }
    }

    /// Undoes everything written, last first; returns what could not be undone.
    func undo() -> [String] {
        log.undo().problems.map(\.message)
    }
}
