import Dispatch
import Foundation
import Logging
import Synchronization

/// One open suite: its ``SuiteMemory`` (what this process knows of it) joined to its
/// ``SuiteFile``. Every ``SuiteStore`` of this process that names the file shares it
/// (``SuiteRegistry``).
///
/// It owns the order of file work: writes, reloads, commits and reverts run one at a time on
/// its serial `queue`, and whatever touches the file's contents does so under the file lock.
/// It also owns the scheduling (which write or reload is due). The memory decides what to
/// write; this type reads and writes the file around the memory's transitions:
///
/// - a `set` changes the memory and schedules a coalesced write (``set(_:forKey:)``);
/// - the write path (``write(_:)``, `OpenSuite+Write.swift`): under the file lock, the file's
///   stamp, the file read if another process changed it, the memory's hand-over, the bytes,
///   the replace, the memory's finish;
/// - another process's write (`OpenSuite+Reload.swift`): ``FileWatcher`` calls
///   ``fileChanged()``, and ``reloadIfChanged()`` reads the new file into the memory.
final class OpenSuite: Sendable {
    static let coalescingDelay: DispatchTimeInterval = .milliseconds(50)
    static let logger = Logger.rizqPrefs

    let location: SuiteLocation
    let file: SuiteFile
    /// What this process knows of the suite: the façade reads it directly.
    let memory = SuiteMemory()
    /// Where writes, reloads, commits and reverts take turns.
    let queue: DispatchQueue
    /// Set when the file could not be opened: the suite then lives in memory only, and every
    /// write reports this error instead of risking the user's file.
    let openError: SuiteStoreError?
    private let opening: Mutex<Opening>
    /// Whether a coalesced write is scheduled on `queue` (``scheduleWrite()``).
    let writeScheduled = Atomic<Bool>(false)
    /// Whether the first write removed the stale temporaries of writers killed mid-write
    /// (``SuiteFile/removeStaleTemporaries()``); only the write path, on `queue`, touches it.
    let temporariesRemoved = Atomic<Bool>(false)
    /// Whether a reload is scheduled on `queue` (``fileChanged()``).
    let reloadScheduled = Atomic<Bool>(false)
    /// Whether inotify cannot follow the file (``FileWatcher``): every read then checks the
    /// file's stamp first (``refreshIfStale()``), so that it never returns a value older than
    /// the file. False in the normal case, where a read costs one load of it more.
    let degraded = Atomic<Bool>(false)
    /// Whether suites opened from now on are watched (``SuiteStore/openWithoutWatching()``).
    static let watchesFiles = Atomic<Bool>(true)
    /// Marks `queue`, so that a read made on it reloads in place (``refreshIfStale()``).
    static let queueKey = DispatchSpecificKey<Bool>()
    /// Where the suite's layers are read from: this process's XDG variables when the suite was
    /// first opened in it (`OpenSuite+Layers.swift`).
    let layerFolders: LayerFolders
    /// Whether a layer is in force: a write then asks the memory whether the key is forced or
    /// the schema refuses the value; false in the usual case, where a write costs one load of it.
    let layersInForce = Atomic<Bool>(false)
    /// Whether a reading of the layers is scheduled on `queue` (``layersChanged()``).
    let layersReloadScheduled = Atomic<Bool>(false)

    /// Where the suite is in being opened (``open()``).
    private enum Opening {
        case notYet
        /// Open; where a damaged file found at open was moved aside, and why.
        case open(movedAside: (path: String, reason: String)?)
        case failed(SuiteStoreError)
    }

    /// A suite to open (``open()``): no file is touched yet.
    init(location: SuiteLocation) {
        self.location = location
        file = SuiteFile(location: location)
        queue = DispatchQueue(label: "RizqPrefs.suite." + location.suiteName)
        openError = nil
        opening = Mutex(.notYet)
        layerFolders = LayerFolders.fromEnvironment()
        queue.setSpecific(key: Self.queueKey, value: true)
    }

    /// A suite that could not be opened: values live in memory only and every write fails
    /// with `error`, so that nothing overwrites a file that could not be read.
    init(unopenable location: SuiteLocation, error: SuiteStoreError) {
        self.location = location
        file = SuiteFile(location: location)
        queue = DispatchQueue(label: "RizqPrefs.suite." + location.suiteName)
        openError = error
        opening = Mutex(.open(movedAside: nil))
        layerFolders = LayerFolders.fromEnvironment()
    }

    /// Reads (or repairs) the file and starts watching it, once: later calls return at once, or
    /// wait while another thread opens this suite; a failure is final for this openSuite (the
    /// registry then forgets it, so that the next open tries afresh).
    func open() throws(SuiteStoreError) {
        var fileWasRead = false
        let result: Result<Void, SuiteStoreError> = opening.withLock { opening in
            switch opening {
            case .open: return .success(())
            case .failed(let error): return .failure(error)
            case .notYet: break
            }
            do throws(SuiteStoreError) {
                // Stale temporaries are removed by the first write (``writePending()``), which
                // holds the lock anyway: an open pays only for reading the file.
                let loaded = try file.loadRepairing(withTimes: false)
                memory.start(with: loaded.entries, stamp: loaded.stamp, schemaVersion: loaded.schemaVersion)
                fileWasRead = loaded.stamp != nil
                opening = .open(movedAside: loaded.movedAside)
                Self.logger.debug("opened suite", metadata: [
                    "suite": "\(location.suiteName)", "path": "\(location.path)", "keys": "\(loaded.entries.count)",
                    "file": "\(loaded.stamp == nil ? "new" : "read")",
                ])
            } catch {
                opening = .failed(error)
                return .failure(error)
            }
            // An administrator's layers and the installed schema: read now, watched below.
            readLayers()
            // A one-shot process (``SuiteStore/openWithoutWatching()``) sets up no watch: each
            // read checks the file's stamp instead, as where inotify cannot follow the file.
            guard Self.watchesFiles.load(ordering: .relaxed) else {
                degraded.store(true, ordering: .releasing)
                return .success(())
            }
            // Followed whether or not the folder can be made: one that appears later is watched
            // then, and polled until it is. A file was just read: its folder exists.
            if !fileWasRead { _ = try? file.ensureDirectory() }
            watchLayers()
            FileWatcher.shared.watch(
                folder: location.directory, fileName: location.suiteName + ".json",
                changed: { [weak self] in self?.fileChanged() },
                degraded: { [weak self] isDegraded in self?.degraded.store(isDegraded, ordering: .releasing) })
            return .success(())
        }
        try result.get()
    }

    /// Where a damaged file found at open was moved aside, and why it was judged damaged.
    var movedAsideAtOpen: (path: String, reason: String)? {
        opening.withLock { opening in
            guard case .open(let movedAside) = opening else { return nil }
            return movedAside
        }
    }

    // MARK: Local changes: memory at once, the file later

    func set(_ value: PrefValue?, forKey key: String) {
        memory.change(key, to: value)
        scheduleWrite()
    }

    /// Applies several changes at once: other threads, and other processes, see all or none.
    func apply(_ changes: [(key: String, value: PrefValue?)], replacingAll: Bool) {
        memory.apply(changes, replacingAll: replacingAll)
        scheduleWrite()
    }

    var hasPendingChanges: Bool { memory.hasPendingChanges }

    /// Schedules one coalesced write, unless one is scheduled already. (A write clears the flag
    /// before it takes the pending changes, under the memory's lock: a change made after it
    /// took them sees the flag cleared, so no change is left without a write to come.)
    private func scheduleWrite() {
        guard !writeScheduled.load(ordering: .relaxed), !writeScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.asyncAfter(deadline: .now() + Self.coalescingDelay) { [self] in
            do {
                try writePending()
            } catch {
                Self.logger.error("\(error)", metadata: ["suite": "\(location.suiteName)"])
            }
        }
    }

    /// Runs `body` on `queue` and waits for it.
    func onQueue<T>(_ body: () throws(SuiteStoreError) -> T) throws(SuiteStoreError) -> T {
        let result: Result<T, SuiteStoreError> = queue.sync {
            do throws(SuiteStoreError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
