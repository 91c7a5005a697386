#if Secrets
import Foundation
import RizqJSON
import Logging
import RizqPrefs
import RizqSecrets

/// Imports an ``ImportDump`` (a `localStorage` dump, a browser's storage, an Apple property list)
/// into suites, and its credentials into the secret store (`ChainedSecretStore`), once, all or nothing.
///
/// ```swift
/// let dump = try ImportDump(contentsOfFile: "rizq-localstorage.json")
/// let plan = try ImportPlan(contentsOfFile: "rizq-web.plan.json")
/// let report = try Importer(plan: plan).run(dump)
/// print(report.text)
/// ```
///
/// Each key is decided by, in order: the plan's rule for it (an exact key, else the first
/// matching pattern); for keys no rule names, the plan's `unmapped` setting (`skip`, or
/// `infer`, which is also what happens without a plan): transient login state is skipped,
/// credentials go to the secret store, and everything else goes to the default suite with
/// an inferred type (<doc:ImportingFromLocalStorage> says what is recognised as a credential and
/// what inference does). A value shaped like a token goes to the secret store even when a
/// plan rule names a suite.
///
/// The guarantees:
/// - **Dry run** (`dryRun`): the report lists every write the import would make; nothing is
///   written, and no suite file or folder is created.
/// - **Order**: secrets first, then each suite in one durable commit, then the record.
/// - **All or nothing**: if any write fails, the suites written so far are put back byte for
///   byte (``/RizqPrefs/SuiteCommit/revert()``), the secrets written are deleted (or, when `overwrite`
///   replaced one, put back), nothing is recorded, and the error says so.
/// - **Once**: the record (`rizq-imports.json` of the app, beside its standard suite) keeps
///   the import id with the input's digest; a second run with the same id reports
///   ``ImportReport/Status/alreadyImported`` and changes nothing, unless `force`.
/// - **Existing values win**: a suite key or secret account that already holds a value is
///   kept (reported as kept) unless `overwrite`.
public struct Importer: Sendable {
    /// How to run: for real or as a dry run, again or once, over existing values or not, and
    /// where keys and secrets go when the plan does not say.
    ///
    /// ```swift
    /// let options = Importer.Options(dryRun: true, defaultSuite: "com.rizq.app", appID: "com.rizq.app")
    /// let report = try Importer(plan: plan, options: options).run(dump)   // writes nothing
    /// ```
    public struct Options: Sendable, Equatable {
        /// Report the writes without making them.
        public var dryRun: Bool
        /// Run even when this import id was imported before.
        public var force: Bool
        /// Replace values that suite keys and secret accounts already hold.
        public var overwrite: Bool
        /// The suite for keys whose rule names none, and for inferred keys (overrides the
        /// plan's; default: the app's standard suite).
        public var defaultSuite: String?
        /// The Secret Service `service` for secrets whose rule names none (overrides the
        /// plan's; default: the app id).
        public var secretService: String?
        /// The import id when there is no plan (default: `localstorage-` and the start of
        /// the input's digest, so that each distinct input imports once).
        public var importID: String?
        /// The app whose suites are meant (default: ``/RizqPrefs/SuiteStore/currentAppID``).
        public var appID: String?
        /// The root of the suite files (default: ``/RizqPrefs/SuiteLocation/defaultRoot(environment:)``).
        public var root: String?

        /// Options; every one defaults to off or to the app's defaults.
        public init(
            dryRun: Bool = false, force: Bool = false, overwrite: Bool = false, defaultSuite: String? = nil,
            secretService: String? = nil, importID: String? = nil, appID: String? = nil, root: String? = nil
        ) {
            self.dryRun = dryRun
            self.force = force
            self.overwrite = overwrite
            self.defaultSuite = defaultSuite
            self.secretService = secretService
            self.importID = importID
            self.appID = appID
            self.root = root
        }
    }

    /// The plan; `nil` infers everything.
    public var plan: ImportPlan?
    /// How to run.
    public var options: Options
    private let makeSecretStore: @Sendable (String) -> any SecretStore
    /// Asked to stop (a signal): checked before each write, and a stop rolls back.
    package var interruption: ImportInterruption?
    /// Whether the secret writes are journaled (``ImportJournal``) for a later process to undo
    /// after a kill: for the chain (the default store), whose backends outlive this
    /// process; not for a store an app passes in (an `InMemorySecretStore` dies with it).
    package var journalsSecrets: Bool

    /// An importer. `secretStore` makes the store for a service name: the chain
    /// (`ChainedSecretStore`: the desktop's Secret Service, or with no desktop the vault) unless
    /// given (an app's own tests may pass `InMemorySecretStore`s). Before the first write the
    /// chain is asked whether a store would land (`ChainedSecretStore.checkWriteTarget()`).
    public init(
        plan: ImportPlan? = nil, options: Options = Options(),
        secretStore: (@Sendable (_ service: String) -> any SecretStore)? = nil
    ) {
        self.plan = plan
        self.options = options
        self.makeSecretStore = secretStore ?? { ChainedSecretStore(service: $0) }
        self.journalsSecrets = secretStore == nil
    }

    /// The label `RizqImport`, the module's name: debug lines name the import's id (metadata
    /// `import`) and what it wrote, never a value.
    static let logger = Logger(label: "RizqImport")

    /// Runs the import (or the dry run) of `dump`.
    /// - Throws: ``ImportError``; before any write, nothing was changed; after a failed
    ///   write, everything written was undone and nothing was recorded.
    public func run(_ dump: ImportDump) throws(ImportError) -> ImportReport {
        let setup = try resolve(dump)
        var report = ImportReport(
            importID: setup.id, status: options.dryRun ? .dryRun : .imported, source: dump.source, format: dump.format,
            origin: dump.origin, digest: dump.digest, items: [], warnings: dump.warnings, previousImport: nil,
            suiteFiles: [:], recordFile: setup.record.location.path)

        do {
            report.previousImport = try setup.record.previous(setup.id)
        } catch {
            throw .suite(error, rollback: nil)
        }
        if report.previousImport != nil, !options.force {
            report.status = .alreadyImported
            return report
        }

        var decisions: [ImportDecision] = []
        decisions.reserveCapacity(dump.entries.count)
        let decider = ImportDecider(plan: plan, defaultSuite: setup.defaultSuite, defaultService: setup.defaultService)
        for entry in dump.entries { decisions.append(try decider.decide(entry)) }
        try Self.checkConflicts(decisions)

        let current = try currentState(of: decisions, setup: setup, warnings: &report.warnings)
        report.suiteFiles = current.suiteFiles
        report.items = decisions.map { item(for: $0, current: current) }
        Self.logger.debug("import planned", metadata: [
            "import": "\(setup.id)", "entries": "\(dump.entries.count)", "dryRun": "\(options.dryRun)",
        ])
        if options.dryRun { return report }

        try write(&report, decisions: decisions, dump: dump, setup: setup, current: current)
        Self.logger.debug("import done", metadata: ["import": "\(setup.id)", "record": "\(setup.record.location.path)"])
        return report
    }

    // MARK: Setting up

    private struct Setup {
        var id: String
        var appID: String
        var root: String
        var defaultSuite: String
        var defaultService: String
        var record: ImportRecord
    }

    private func resolve(_ dump: ImportDump) throws(ImportError) -> Setup {
        let appID = options.appID ?? SuiteStore.currentAppID
        let root = options.root ?? SuiteLocation.defaultRoot()
        if let plan {
            try plan.validate()
        }
        let defaultSuite = options.defaultSuite ?? plan?.defaultSuite ?? appID
        let defaultService = options.secretService ?? plan?.secretService ?? appID
        if defaultService.isEmpty || defaultService.utf8.contains(0) {
            throw .invalidOption(reason: "the secret service name '\(defaultService)' is empty or holds a NUL byte; give another with --service")
        }
        if let problem = ImportPlan.suiteProblem(defaultSuite) {
            throw .invalidOption(reason: "the suite '\(defaultSuite)' cannot be the import's target: \(problem); give another with --suite")
        }
        let id = plan?.id ?? options.importID ?? "localstorage-" + String(dump.digest.dropFirst("sha256:".count).prefix(16))
        if let problem = ImportPlan.idProblem(id) { throw .invalidOption(reason: "invalid import id: \(problem)") }
        do {
            _ = try SuiteLocation(suiteName: defaultSuite, appID: appID, root: root)
            let record = try ImportRecord(appID: appID, root: root)
            return Setup(id: id, appID: appID, root: root, defaultSuite: defaultSuite, defaultService: defaultService, record: record)
        } catch {
            throw .invalidOption(reason: error.description)
        }
    }

    private static func checkConflicts(_ decisions: [ImportDecision]) throws(ImportError) {
        var sources: [String: [String]] = [:]
        var order: [String] = []
        for decision in decisions {
            let target: String
            switch decision.outcome {
            case .suite(let suite, let key, _, _, _): target = "suite \(suite), key '\(key)'"
            case .secret(let service, let account, _, _): target = "the secret store, service \(service), account '\(account)'"
            case .skip: continue
            }
            if sources[target] == nil { order.append(target) }
            sources[target, default: []].append(decision.entry.key)
        }
        for target in order where (sources[target]?.count ?? 0) > 1 {
            throw .conflictingTargets(target: target, keys: sources[target] ?? [])
        }
    }

    // MARK: What is there already

    private struct CurrentState {
        var suites: [String: [String: PrefValue]] = [:]
        var suiteFiles: [String: String] = [:]
        var secrets: [SecretAddress: Data] = [:]
        /// The services whose write target was checked (`ChainedSecretStore.checkWriteTarget()`).
        var checkedServices: Set<String> = []
    }

    private func currentState(of decisions: [ImportDecision], setup: Setup, warnings: inout [String]) throws(ImportError) -> CurrentState {
        var state = CurrentState()
        var secretCheckFailed = false
        for decision in decisions {
            switch decision.outcome {
            case .suite(let suite, _, _, _, _) where state.suiteFiles[suite] == nil:
                do {
                    let location = try SuiteLocation(suiteName: suite, appID: setup.appID, root: setup.root)
                    state.suiteFiles[suite] = location.path
                    state.suites[suite] = try entries(of: location, suite: suite, setup: setup, warnings: &warnings)
                } catch {
                    throw .suite(error, rollback: nil)
                }
            case .secret(let service, let account, _, _) where !secretCheckFailed:
                let store = makeSecretStore(service)
                do {
                    if let existing = try store.secretBytes(forAccount: account) {
                        state.secrets[SecretAddress(service: service, account: account)] = existing
                    }
                } catch {
                    guard options.dryRun else { throw .secretService(error, rollback: nil) }
                    // A dry run still shows its plan without a keyring; a real run would stop here.
                    secretCheckFailed = true
                    warnings.append("could not look for existing secrets (\(error)); a real import would stop here")
                    continue
                }
                // The chain finds where the secrets would go now, before any write: with no
                // backend that can store them, nothing is written at all.
                guard let chain = store as? ChainedSecretStore, !state.checkedServices.contains(service) else { continue }
                state.checkedServices.insert(service)
                do {
                    _ = try chain.checkWriteTarget()
                } catch {
                    guard options.dryRun else { throw .secretService(error, rollback: nil) }
                    secretCheckFailed = true
                    warnings.append("the secrets could not be stored here (\(error)); a real import would stop here")
                }
            default:
                break
            }
        }
        return state
    }

    /// What a suite holds now. A dry run reads the file and opens nothing, so that it creates
    /// no folder and moves no damaged file aside.
    private func entries(of location: SuiteLocation, suite: String, setup: Setup, warnings: inout [String]) throws(SuiteStoreError) -> [String: PrefValue] {
        guard options.dryRun else {
            return try SuiteStore(suite: suite, appID: setup.appID, root: setup.root).entries
        }
        guard FileManager.default.fileExists(atPath: location.path) else { return [:] }
        guard let data = FileManager.default.contents(atPath: location.path) else {
            throw .unreadable(path: location.path, reason: "permission denied")
        }
        guard case .dictionary(let entries)? = try? JSONReader.parse(data) else {
            warnings.append("suite file \(location.path) is damaged; a real import moves it aside and starts the suite empty")
            return [:]
        }
        return entries
    }

    private func item(for decision: ImportDecision, current: CurrentState) -> ImportReport.Item {
        let key = decision.entry.key
        switch decision.outcome {
        case .skip(let reason):
            return ImportReport.Item(sourceKey: key, action: .skipped, destination: nil, type: nil, value: nil, rule: decision.rule, note: [reason, decision.note].compactMap { $0 }.joined(separator: "; "))
        case .suite(let suite, let target, let value, let type, let declared):
            let destination = ImportReport.Destination.suite(name: suite, key: target)
            if let existing = current.suites[suite]?[target], !options.overwrite {
                let note = existing == value ? "the suite already holds this value" : "the suite already holds a value here; overwrite (--overwrite) replaces it"
                return ImportReport.Item(sourceKey: key, action: .kept, destination: destination, type: type, value: nil, rule: decision.rule, note: note)
            }
            return ImportReport.Item(sourceKey: key, action: declared ? .imported : .inferred, destination: destination, type: type, value: value, rule: decision.rule, note: decision.note)
        case .secret(let service, let account, let value, _):
            let destination = ImportReport.Destination.secret(service: service, account: account)
            if let existing = current.secrets[SecretAddress(service: service, account: account)], !options.overwrite {
                let note = existing == value ? "the secret store already holds this secret" : "the secret store already holds a different secret here; overwrite (--overwrite) replaces it"
                return ImportReport.Item(sourceKey: key, action: .kept, destination: destination, type: nil, value: nil, rule: decision.rule, note: note)
            }
            return ImportReport.Item(sourceKey: key, action: .secret, destination: destination, type: nil, value: nil, rule: decision.rule, note: decision.note)
        }
    }

    // MARK: Writing

    /// A stop asked by ``interruption``, thrown between two steps of the write.
    private struct Interrupted: Error {
        var signal: Int32
    }

    private func checkInterruption() throws {
        if let signal = interruption?.signal { throw Interrupted(signal: signal) }
    }

    private func write(_ report: inout ImportReport, decisions: [ImportDecision], dump: ImportDump, setup: Setup, current: CurrentState) throws(ImportError) {
        if let signal = interruption?.signal { throw .interrupted(signal: signal, rollback: nil) }
        // Secret writes outlive a killed process: each is announced in the journal, on disk,
        // before it is made, so that the next import can remove what this one leaves.
        var journal: ImportJournal?
        if journalsSecrets, report.items.contains(where: { $0.action == .secret }) {
            do {
                journal = try ImportJournal.begin(importID: setup.id, appID: setup.appID, root: setup.root)
            } catch {
                throw .suite(error, rollback: nil)
            }
        }
        // Secrets first, then each suite, the record last: a failure undoes them in reverse.
        var written = UndoLog()
        var journaled: [(service: String, account: String, existed: Bool)] = []
        do {
            // 1. Secrets.
            let recordedSecrets = try writeSecrets(
                report, decisions: decisions, dump: dump, setup: setup, current: current, journal: journal, written: &written, journaled: &journaled)
            // 2. Each suite in one commit, in the order the dump first names them.
            let recordedSuites = try writeSuites(&report, decisions: decisions, setup: setup, current: current, journal: journal, written: &written)
            // 3. The record, last: an import that is recorded is complete (a stop asked after
            // this point is too late to undo anything).
            try checkInterruption()
            let runs = (report.previousImport?.runs ?? 0) + 1
            try setup.record.commit(id: setup.id, dump: dump, suites: recordedSuites, secrets: recordedSecrets, runs: runs, run: journal?.run ?? UUID().uuidString.lowercased())
            journal?.finish()
        } catch {
            throw rollBack(after: error, written: written, journal: journal, journaled: journaled, setup: setup)
        }
    }

    /// Step 1 of the write: each secret the report imports, announced in the journal before it
    /// is made and recorded in `written` once made (or when a time-out leaves it uncertain).
    /// Returns the secrets written.
    private func writeSecrets(
        _ report: ImportReport, decisions: [ImportDecision], dump: ImportDump, setup: Setup, current: CurrentState, journal: ImportJournal?,
        written: inout UndoLog, journaled: inout [(service: String, account: String, existed: Bool)]
    ) throws -> [(service: String, account: String)] {
        var recordedSecrets: [(service: String, account: String)] = []
        for (index, decision) in decisions.enumerated() where report.items[index].action == .secret {
            guard case .secret(let service, let account, let value, let isText) = decision.outcome else { continue }
            try checkInterruption()
            let store = makeSecretStore(service)
            let previous = current.secrets[SecretAddress(service: service, account: account)]
            let from = dump.format == .plist ? "a property list" : "localStorage"
            try journal?.willWriteSecret(service: service, account: account, existed: previous != nil)
            journaled.append((service, account, previous != nil))
            Self.logger.debug("writing a secret", metadata: ["import": "\(setup.id)", "service": "\(service)", "account": "\(account)"])
            do {
                try store.storeSecret(value, isText: isText, forAccount: account, label: "\(account) (\(service)), imported from \(from)")
            } catch {
                // A time-out is only the caller giving up: the store may still keep it.
                if case .timedOut = error { written.recordSecretWrite(to: store, account: account, previous: previous, uncertain: true) }
                throw error
            }
            written.recordSecretWrite(to: store, account: account, previous: previous)
            recordedSecrets.append((service, account))
        }
        return recordedSecrets
    }

    /// Step 2 of the write: each suite's values in one commit, in the order the dump first names
    /// the suites, recorded in `written`; a key another process stored meanwhile is kept (and
    /// the report says so). Returns the keys written, by suite.
    private func writeSuites(
        _ report: inout ImportReport, decisions: [ImportDecision], setup: Setup, current: CurrentState, journal: ImportJournal?, written: inout UndoLog
    ) throws -> [String: [String]] {
        var suiteOrder: [String] = []
        var writes: [String: [(index: Int, key: String, value: PrefValue)]] = [:]
        for (index, decision) in decisions.enumerated() where [.imported, .inferred].contains(report.items[index].action) {
            guard case .suite(let suite, let key, let value, _, _) = decision.outcome else { continue }
            if writes[suite] == nil { suiteOrder.append(suite) }
            writes[suite, default: []].append((index, key, value))
        }
        var recordedSuites: [String: [String]] = [:]
        for suite in suiteOrder {
            try checkInterruption()
            try journal?.willCommitSuite(suite, keys: (writes[suite] ?? []).map(\.key))
            let store = try SuiteStore(suite: suite, appID: setup.appID, root: setup.root)
            let overwrite = options.overwrite
            var keptMeanwhile: [Int] = []
            let commit = try store.commit { batch in
                // Another process may have written one of the keys since the plan was made.
                let now = store.entries
                for write in writes[suite] ?? [] {
                    if !overwrite, now[write.key] != nil, current.suites[suite]?[write.key] == nil {
                        keptMeanwhile.append(write.index)
                        continue
                    }
                    try batch.set(write.value, forKey: write.key)
                }
            }
            written.record(commit)
            for index in keptMeanwhile {
                report.items[index].action = .kept
                report.items[index].value = nil
                report.items[index].note = "another program stored a value here during the import; it was kept"
            }
            recordedSuites[suite] = (writes[suite] ?? []).filter { !keptMeanwhile.contains($0.index) }.map(\.key)
        }
        return recordedSuites
    }

    /// Undoes what `written` holds after `error` stopped the write, keeps in the journal what
    /// could not be undone (for the next import), and returns the error the import throws.
    private func rollBack(
        after error: any Error, written: UndoLog, journal: ImportJournal?, journaled: [(service: String, account: String, existed: Bool)], setup: Setup
    ) -> ImportError {
        let rollback = ImportRollback(written.undo())
        if rollback.isComplete {
            journal?.finish()
        } else {
            // What the rollback could not undo stays in the journal, for the next import.
            let unknown = Set(rollback.unknownSecrets.map { "\($0.service)\u{0}\($0.account)" })
            journal?.keepOnly(secrets: journaled.filter { unknown.contains("\($0.service)\u{0}\($0.account)") })
        }
        if let stop = error as? Interrupted { return .interrupted(signal: stop.signal, rollback: rollback) }
        if let signal = interruption?.signal { return .interrupted(signal: signal, rollback: rollback) }
        if let secretError = error as? SecretError { return .secretService(secretError, rollback: rollback) }
        if let suiteError = error as? SuiteStoreError { return .suite(suiteError, rollback: rollback) }
        return .suite(.writeFailed(path: setup.record.location.path, reason: "\(error)"), rollback: rollback)
    }
}
#endif
