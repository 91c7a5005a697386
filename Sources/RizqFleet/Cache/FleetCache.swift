#if Fleet
import Dispatch
import Foundation
import Logging
import RizqCore
import RizqPrefs
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A fleet suite's last-known-good copy on this host: its values in a suite of their own (what
/// every read answers from, and what a process starts from when the engine is away), and its
/// bookkeeping in a second suite (``FleetCacheState``).
///
/// Order on disk: the values are flushed before the state that describes them, so that after a
/// crash the state never claims a revision whose values are missing (the next catch-up reads
/// again from the revision the state names; reading a change twice is harmless).
///
/// One process per cache: a lock file taken at open (`.<cache>.fleet-lock`, beside the suite
/// file) keeps a second process from interleaving its own revision and stamps with ours.
final class FleetCache: Sendable {
    let values: SuiteStore
    private let stateStore: SuiteStore
    let state: Mutex<FleetCacheState>
    /// This process's hold on the cache (one process per cache), for as long as the cache lives.
    private let lock: FileLock
    private let persisting = Mutex<(scheduled: Bool, failure: String?)>((false, nil))
    private let queue: DispatchQueue
    private let logger: Logger

    init(location: FleetCacheLocation, logger: Logger) throws(FleetError) {
        self.logger = logger
        do {
            values = try SuiteStore(suite: location.suiteName, appID: location.appID, root: location.root)
            stateStore = try SuiteStore(suite: location.suiteName + ".state", appID: location.appID, root: location.root)
        } catch {
            switch error {
            case .invalidSuiteName(let name, let reason): throw .invalidSuiteName(name: name, reason: reason)
            default: throw .cache(path: location.suiteName, reason: error.description)
            }
        }
        let lockPath = values.location.directory + "/." + location.suiteName + ".fleet-lock"
        do {
            try PrivateFolder.ensure(values.location.directory, trust: .settings("fleet cache folder"))
            guard let lock = try FileLock.tryAcquire(lockPath, subject: "fleet cache") else { throw FleetError.cacheInUse(path: values.location.path) }
            self.lock = lock
        } catch let error as FleetError {
            throw error
        } catch let error as FileError {
            throw .cache(path: error.path, reason: error.reason)
        } catch {
            throw .cache(path: lockPath, reason: "\(error)")
        }
        state = Mutex(FleetCacheState(entries: stateStore.entries))
        queue = DispatchQueue(label: "rizq.fleet.cache." + location.suiteName)
    }

    /// The cache suite file's path.
    var path: String { values.location.path }

    /// Applies values to the cache suite in one batch (readers and change streams see them at
    /// once); the state is updated by the caller afterwards.
    func apply(_ changes: [(key: String, value: PrefValue?)]) {
        guard !changes.isEmpty else { return }
        values.batch { batch in
            for (key, value) in changes {
                if let value {
                    do {
                        try batch.set(value, forKey: key)
                    } catch {
                        logger.error("a fleet value cannot be cached", metadata: ["key": "\(key)", "reason": "\(error)"])
                    }
                } else {
                    batch.removeObject(forKey: key)
                }
            }
        }
    }

    /// How long a persist waits for more changes to join it: the local suites' own coalescing
    /// delay. Without it every committed write of a burst made its own two or three fsyncs,
    /// which shared the disk with the engine's commit of the next write (issue 39). What it costs: a
    /// process killed within this delay of a change left the cache's state behind its values,
    /// or both behind the engine — which the next catch-up repairs, as after any crash.
    static let persistDelay: DispatchTimeInterval = .milliseconds(50)

    /// Writes the values, then the state, to disk soon (``persistDelay``), on the cache's own
    /// queue (never on a caller's thread: each is an fsync). Several requests before it runs
    /// make one write.
    func schedulePersist() {
        let schedule = persisting.withLock { persisting in
            if persisting.scheduled { return false }
            persisting.scheduled = true
            return true
        }
        guard schedule else { return }
        // Weakly held: a cache let go must not stay open (its lock file held) until the delay
        // ends; it persists in its deinit instead.
        queue.asyncAfter(deadline: .now() + Self.persistDelay) { [weak self] in
            guard let self else { return }
            persisting.withLock { $0.scheduled = false }
            persistNow()
        }
    }

    deinit {
        // A persist still waiting for its delay finds the cache gone: its changes are written now.
        if persisting.withLock({ $0.scheduled }) { persistNow() }
    }

    /// The values, then the state, durably, now (on the calling thread).
    /// - Throws: ``FleetError/cache(path:reason:)``.
    func persistNow() {
        // The state's dirty parts are taken before the values are flushed: everything they
        // describe is already in the values suite's memory, so it is in this flush.
        let entries = state.withLock { $0.takeDirtyEntries() }
        do {
            try values.flush()
            guard !entries.isEmpty else { return }
            stateStore.batch { batch in
                for (key, value) in entries {
                    if let value {
                        try? batch.set(value, forKey: key)
                    } else {
                        batch.removeObject(forKey: key)
                    }
                }
            }
            try stateStore.flush()
            persisting.withLock { $0.failure = nil }
        } catch {
            persisting.withLock { $0.failure = error.description }
            logger.error("cannot write the fleet cache; it is kept in memory and written at the next change", metadata: ["path": "\(path)", "reason": "\(error)"])
            // The entries taken are marked dirty again, so that the next persist writes them.
            state.withLock { state in
                for (key, _) in entries {
                    if key == FleetCacheState.headKey {
                        state.dirtyHead = true
                    } else if key.hasPrefix(FleetCacheState.stampPrefix) {
                        state.dirtyStamps.insert(String(key.dropFirst(FleetCacheState.stampPrefix.count)))
                    } else if key.hasPrefix(FleetCacheState.queuedPrefix) {
                        state.dirtyQueue.insert(String(key.dropFirst(FleetCacheState.queuedPrefix.count)))
                    }
                }
            }
        }
    }

    /// Persists on the cache's queue and waits for it: what a queued write needs before it
    /// may say it is kept.
    func persistAndWait() throws(FleetError) {
        queue.sync { persistNow() }
        if let failure = persisting.withLock({ $0.failure }) {
            throw .cache(path: path, reason: failure)
        }
    }

    /// Waits for a persist in progress (at exit, and for tests).
    func settle() {
        queue.sync { persistNow() }
    }
}
#endif
