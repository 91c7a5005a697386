import Dispatch
import Foundation
import Logging
import RizqCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import CLinuxFileCalls
#endif

/// Tells open suites when their file may have changed: one inotify instance for the whole
/// process, read by one background thread, watching the folders of open suites (a rename
/// replaces the file, so the file itself cannot be watched) — and, wherever inotify cannot do
/// it, a check of the files themselves, so that change delivery never goes silently stale.
///
/// Every way inotify fails is detected, and each has its fallback:
///
/// | what fails | seen as | what happens |
/// | --- | --- | --- |
/// | no instance left (`fs.inotify.max_user_instances`) | `inotify_init1` fails with `EMFILE` | every suite is polled; an instance is asked for again every few seconds |
/// | no watch left (`fs.inotify.max_user_watches`) | `inotify_add_watch` fails with `ENOSPC` | that folder's suites are polled; the watch is tried again |
/// | the queue overflowed (`fs.inotify.max_queued_events`) | an `IN_Q_OVERFLOW` event | every suite is checked at once |
/// | the folder removed, moved, or replaced (`~/.config` restored from a backup) | `IN_IGNORED`, `IN_DELETE_SELF`, `IN_MOVE_SELF`, or the path naming another folder at a periodic check | its suites are checked at once and polled until the folder is back, then watched again |
/// | a network file system (NFS, SMB, FUSE, 9p, Ceph, …) | `statfs` | inotify sees only this machine's writes: its suites are polled too |
///
/// A polled suite is *degraded* (``Subscription/degraded``): its file is checked every
/// ``pollInterval``, feeding the change streams, and every read checks the file's stamp first
/// (``OpenSuite/refreshIfStale()``), so that a read never returns a value older than the
/// file. Each cause is logged once per process, as a warning that names the limit to raise.
final class FileWatcher: Sendable {
    static let shared = FileWatcher()

    typealias Handler = @Sendable () -> Void

    /// How often a degraded suite's file is checked.
    static let pollInterval: DispatchTimeInterval = .milliseconds(250)
    /// How often a watched folder is checked to still be the folder at its path (an ancestor
    /// renamed or replaced sends no event to a watch below it), and a missing instance asked for.
    static let identityInterval: Int64 = 2_000_000_000

    /// One suite file followed.
    final class Subscription: Sendable {
        let fileName: String
        /// Called when the file may have changed (on the watcher's or the poller's thread).
        let changed: Handler
        /// Called with `true` when the suite must be polled, `false` when inotify follows it again.
        let degraded: @Sendable (Bool) -> Void
        /// The file's stamp at the last poll (`.none`: not polled yet).
        let lastStamp = Mutex<FileStamp??>(.none)

        init(fileName: String, changed: @escaping Handler, degraded: @escaping @Sendable (Bool) -> Void) {
            self.fileName = fileName
            self.changed = changed
            self.degraded = degraded
        }
    }

    private struct Folder {
        /// The inotify watch, when there is one.
        var watch: Int32?
        /// The folder's device and inode when it was watched.
        var identity: (device: UInt64, inode: UInt64)?
        /// On a network file system: polled even while watched.
        var remote = false
        var subscriptions: [Subscription] = []
        /// Whether its suites are polled now (what they were last told).
        var degraded = false
    }

    private struct State {
        var descriptor: Int32 = -1
        /// When an instance was last asked for and refused (`nil`: never refused).
        var instanceRefusedAt: Int64?
        var readerStarted = false
        var pollerStarted = false
        var lastIdentityCheck: Int64 = 0
        var folders: [String: Folder] = [:]
        var byWatch: [Int32: String] = [:]
    }

    private let state = Mutex(State())
    /// Wakes the poller at once (a folder lost its watch).
    private let wake = DispatchSemaphore(value: 0)

    private init() {}

    // MARK: Subscribing

    /// Follows `fileName` in `folder`: `changed` is called whenever the file may have been
    /// written, replaced or removed; `degraded` when it must be (or no longer be) polled.
    func watch(folder: String, fileName: String, changed: @escaping Handler, degraded: @escaping @Sendable (Bool) -> Void) {
        let subscription = Subscription(fileName: fileName, changed: changed, degraded: degraded)
        let isDegraded = state.withLock { state -> Bool in
            ensureInstance(&state)
            if state.folders[folder] == nil {
                var entry = Folder()
                entry.remote = Self.remoteFileSystem(folder) != nil
                state.folders[folder] = entry
                addWatch(folder, &state)
            }
            state.folders[folder]?.subscriptions.append(subscription)
            startThreads(&state)
            return state.folders[folder]?.degraded ?? true
        }
        if isDegraded { subscription.degraded(true) }
    }

    // MARK: Instance and watches (under the state's lock)

    private func ensureInstance(_ state: inout State) {
        guard state.descriptor < 0 else { return }
        let now = WallClock.now()
        if let refused = state.instanceRefusedAt, now - refused < Self.identityInterval { return }
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            let code = errno
            state.instanceRefusedAt = now
            InotifyLimits.warnNoInstance(code)
            return
        }
        state.descriptor = descriptor
        state.instanceRefusedAt = nil
    }

    /// Watches `path` when there is an instance, the folder exists and it is not watched yet;
    /// marks the folder degraded (polled) or not accordingly. Returns whether that changed.
    @discardableResult
    private func addWatch(_ path: String, _ state: inout State) -> Bool {
        guard var folder = state.folders[path] else { return false }
        defer { state.folders[path] = folder }
        if state.descriptor >= 0, folder.watch == nil {
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF)
            let watch = inotify_add_watch(state.descriptor, path, mask)
            if watch >= 0 {
                var info = stat()
                if stat(path, &info) == 0 { folder.identity = (UInt64(info.st_dev), UInt64(info.st_ino)) }
                folder.watch = watch
                state.byWatch[watch] = path
                if folder.remote, let kind = Self.remoteFileSystem(path) { InotifyLimits.warnRemote(path, kind) }
            } else {
                let code = errno
                if code == ENOSPC { InotifyLimits.warnNoWatch(path) }
            }
        }
        let nowDegraded = folder.watch == nil || folder.remote
        let changed = nowDegraded != folder.degraded
        folder.degraded = nowDegraded
        return changed
    }

    /// Forgets the watch of `path` (its folder is gone, moved or replaced); the folder is
    /// polled until a watch is had again.
    private func dropWatch(_ path: String, _ state: inout State, remove: Bool) {
        guard let watch = state.folders[path]?.watch else { return }
        if remove, state.descriptor >= 0 { _ = inotify_rm_watch(state.descriptor, watch) }
        state.byWatch[watch] = nil
        state.folders[path]?.watch = nil
        state.folders[path]?.identity = nil
    }

    private func startThreads(_ state: inout State) {
        if state.descriptor >= 0, !state.readerStarted {
            state.readerStarted = true
            let descriptor = state.descriptor
            let reader = Thread { [self] in self.read(descriptor) }
            reader.name = "RizqPrefs.FileWatcher"
            reader.start()
        }
        if !state.pollerStarted {
            state.pollerStarted = true
            let poller = Thread { [self] in self.poll() }
            poller.name = "RizqPrefs.FilePoller"
            poller.start()
        }
    }

    // MARK: The inotify thread

    private func read(_ descriptor: Int32) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            guard let count = try? DescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else { return }
            var due: [Handler] = []
            var told: [(Subscription, Bool)] = []
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                // A name that is not valid UTF-8 is no suite's file (suite names are text).
                let name = nameLength > 0 ? String(validatingCString: (buffer + offset + headerSize).assumingMemoryBound(to: CChar.self)) : ""
                offset += headerSize + nameLength
                let mask = Int32(bitPattern: event.mask)
                state.withLock { state in
                    if mask & Int32(IN_Q_OVERFLOW) != 0 {
                        InotifyLimits.warnOverflow()
                        for folder in state.folders.values { due += folder.subscriptions.map(\.changed) }
                        return
                    }
                    guard let path = state.byWatch[event.wd] else { return }
                    if mask & Int32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
                        // Gone, moved (the watch would follow it elsewhere) or unmounted: every
                        // suite in it is looked at, then polled until the folder is watched again.
                        dropWatch(path, &state, remove: mask & Int32(IN_IGNORED) == 0)
                        let subscriptions = state.folders[path]?.subscriptions ?? []
                        due += subscriptions.map(\.changed)
                        if addWatch(path, &state) {
                            let degraded = state.folders[path]?.degraded ?? true
                            told += subscriptions.map { ($0, degraded) }
                        }
                        wake.signal()
                        return
                    }
                    guard let name else { return }
                    for subscription in state.folders[path]?.subscriptions ?? [] where subscription.fileName == name {
                        due.append(subscription.changed)
                    }
                }
            }
            for (subscription, degraded) in told { subscription.degraded(degraded) }
            // The suite coalesces several events (write, then rename) into one look at the file.
            for handler in due { handler() }
        }
    }

    // MARK: The poller

    /// Runs for the life of the process: polls degraded suites every ``pollInterval``; every
    /// ``identityInterval`` asks again for a missing instance and checks that each watched
    /// folder is still the folder at its path. Idle (one wake-up every two seconds) while every
    /// suite is watched.
    private func poll() {
        while true {
            let anyDegraded = state.withLock { $0.folders.values.contains { $0.degraded } }
            _ = wake.wait(timeout: .now() + (anyDegraded ? Self.pollInterval : .nanoseconds(Int(Self.identityInterval))))
            var told: [(Subscription, Bool)] = []
            var due: [Handler] = []
            var polled: [Subscription] = []
            var folderOf: [ObjectIdentifier: String] = [:]
            state.withLock { state in
                let now = WallClock.now()
                let checkIdentity = now - state.lastIdentityCheck >= Self.identityInterval
                if checkIdentity { state.lastIdentityCheck = now }
                if state.descriptor < 0 {
                    ensureInstance(&state)
                    if state.descriptor >= 0 { startThreads(&state) }
                }
                for path in Array(state.folders.keys) {
                    guard let before = state.folders[path] else { continue }
                    var lostWatch = false
                    if before.watch != nil, checkIdentity, !Self.isStill(path, before.identity) {
                        // Moved or replaced without an event for this watch (an ancestor was).
                        dropWatch(path, &state, remove: true)
                        lostWatch = true
                    }
                    addWatch(path, &state)
                    guard let after = state.folders[path] else { continue }
                    if lostWatch { due += after.subscriptions.map(\.changed) }
                    if after.degraded != before.degraded {
                        told += after.subscriptions.map { ($0, after.degraded) }
                        // Watched again: what happened meanwhile is looked at now.
                        if !after.degraded { due += after.subscriptions.map(\.changed) }
                    }
                    if after.degraded {
                        for subscription in after.subscriptions {
                            polled.append(subscription)
                            folderOf[ObjectIdentifier(subscription)] = path
                        }
                    }
                }
            }
            for (subscription, degraded) in told { subscription.degraded(degraded) }
            for handler in due { handler() }
            for subscription in polled {
                guard let folder = folderOf[ObjectIdentifier(subscription)] else { continue }
                let stamp = FileStamp.of(folder + "/" + subscription.fileName)
                let moved = subscription.lastStamp.withLock { last -> Bool in
                    defer { last = .some(stamp) }
                    if case .some(let seen) = last { return seen != stamp }
                    return true
                }
                if moved { subscription.changed() }
            }
        }
    }

    /// Whether the folder at `path` is still the one with `identity`.
    private static func isStill(_ path: String, _ identity: (device: UInt64, inode: UInt64)?) -> Bool {
        guard let identity else { return false }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == identity.device && UInt64(info.st_ino) == identity.inode
    }

    /// The name of the network (or FUSE) file system `path` is on, where inotify sees only this
    /// machine's writes; `nil` for a local one.
    static func remoteFileSystem(_ path: String) -> String? {
        RemoteFileSystem.name(of: path)
    }
}
