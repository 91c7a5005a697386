import Foundation
import Synchronization

/// The process-wide table of open suites: every ``SuiteStore`` naming one file shares one
/// ``OpenSuite``, so two instances of a suite in one process never disagree. Also writes
/// every pending change when the process exits normally.
enum SuiteRegistry {
    private static let openSuites = Mutex<[String: OpenSuite]>([:])

    private static let exitHookInstalled: Bool = {
        atexit { SuiteRegistry.flushAll() }
        return true
    }()

    /// The suite's openSuite, opened. The table's lock covers only the look-up: the file is read
    /// outside it (``OpenSuite/open()``), so that a suite whose file is slow to open (damaged,
    /// locked by another process, on a slow disk) delays only the openers of that suite.
    static func openSuite(for location: SuiteLocation) throws(SuiteStoreError) -> OpenSuite {
        _ = exitHookInstalled
        let openSuite = openSuites.withLock { table in
            if let existing = table[location.path] { return existing }
            let created = OpenSuite(location: location)
            table[location.path] = created
            return created
        }
        do {
            try openSuite.open()
        } catch {
            openSuites.withLock { table in
                if table[location.path] === openSuite { table[location.path] = nil }
            }
            throw error
        }
        return openSuite
    }

    /// Writes what every open suite has pending; failures are logged (the process is ending).
    static func flushAll() {
        let open = openSuites.withLock { Array($0.values) }
        for openSuite in open where openSuite.hasPendingChanges {
            do {
                try openSuite.flush()
            } catch {
                OpenSuite.logger.error("\(error)", metadata: ["suite": "\(openSuite.location.suiteName)"])
            }
        }
    }
}
