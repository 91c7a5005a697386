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

    static func backend(for location: SuiteLocation) throws(SuiteStoreError) -> SuiteBackend {
        _ = exitHookInstalled
        let result: Result<SuiteBackend, SuiteStoreError> = backends.withLock { table in
            if let existing = table[location.path] { return .success(existing) }
            do throws(SuiteStoreError) {
                let backend = try SuiteBackend(location: location)
                table[location.path] = backend
                return .success(backend)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
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
