import Foundation
import Synchronization

/// The process-wide table of open suites: every ``SuiteStore`` naming one file shares one
/// ``SuiteBackend``, so two instances of a suite in one process never disagree. Also writes
/// every pending change when the process exits normally.
enum SuiteRegistry {
    private static let backends = Mutex<[String: SuiteBackend]>([:])

    private static let exitHookInstalled: Bool = {
        atexit { SuiteRegistry.flushAll() }
        return true
    }()

    /// The suite's backend, opened. The table's lock covers only the look-up: the file is read
    /// outside it (``SuiteBackend/open()``), so that a suite whose file is slow to open (damaged,
    /// locked by another process, on a slow disk) delays only the openers of that suite.
    static func backend(for location: SuiteLocation) throws(SuiteStoreError) -> SuiteBackend {
        _ = exitHookInstalled
        let backend = backends.withLock { table in
            if let existing = table[location.path] { return existing }
            let created = SuiteBackend(location: location)
            table[location.path] = created
            return created
        }
        do {
            try backend.open()
        } catch {
            backends.withLock { table in
                if table[location.path] === backend { table[location.path] = nil }
            }
            throw error
        }
        return backend
    }

    /// Writes what every open suite has pending; failures are logged (the process is ending).
    static func flushAll() {
        let open = backends.withLock { Array($0.values) }
        for backend in open where backend.hasPendingChanges {
            do {
                try backend.flush()
            } catch {
                SuiteBackend.logger.error("\(error)", metadata: ["suite": "\(backend.location.suiteName)"])
            }
        }
    }
}
