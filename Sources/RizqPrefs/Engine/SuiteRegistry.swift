import Foundation
import Synchronization

/// The process-wide table of open suites: every ``SuiteStore`` naming one file shares one
/// ``SuiteEngine``, so two instances of a suite in one process never disagree. Also writes
/// every pending change when the process exits normally.
enum SuiteRegistry {
    private static let engines = Mutex<[String: SuiteEngine]>([:])

    private static let exitHookInstalled: Bool = {
        atexit { SuiteRegistry.flushAll() }
        return true
    }()

    /// The suite's engine, opened. The table's lock covers only the look-up: the file is read
    /// outside it (``SuiteEngine/open()``), so that a suite whose file is slow to open (damaged,
    /// locked by another process, on a slow disk) delays only the openers of that suite.
    static func engine(for location: SuiteLocation) throws(SuiteStoreError) -> SuiteEngine {
        _ = exitHookInstalled
        let engine = engines.withLock { table in
            if let existing = table[location.path] { return existing }
            let created = SuiteEngine(location: location)
            table[location.path] = created
            return created
        }
        do {
            try engine.open()
        } catch {
            engines.withLock { table in
                if table[location.path] === engine { table[location.path] = nil }
            }
            throw error
        }
        return engine
    }

    /// Writes what every open suite has pending; failures are logged (the process is ending).
    static func flushAll() {
        let open = engines.withLock { Array($0.values) }
        for engine in open where engine.hasPendingChanges {
            do {
                try engine.flush()
            } catch {
                SuiteEngine.logger.error("\(error)", metadata: ["suite": "\(engine.location.suiteName)"])
            }
        }
    }
}
