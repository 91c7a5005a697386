import Foundation
import Synchronization
import RizqCore
#if canImport(Glibc)
import Glibc
#endif

/// Follows mounted folders with inotify and hands each new snapshot to their subscribers: one
/// inotify instance and one thread for the whole process, one watch per folder (never one per
/// file: a watch on a kubelet key follows the link once and dies at the first update).
///
/// What it reacts to, in a folder's watch (non-recursive):
///
/// | event | meaning | what happens |
/// | --- | --- | --- |
/// | `IN_MOVED_TO ..data` (or any event on `..data`) | kubelet published a generation (it renames `..data_tmp` onto `..data`, once per generation, when the generation is complete) | `..data` is read; if it names another generation than the last snapshot's, the folder is read and the snapshot delivered |
/// | any event on another name, in a plain folder | a file was added, removed, replaced or written | the folder is read; a snapshot that differs is delivered |
/// | any event on another name, in a Kubernetes volume | kubelet adding or removing the top-level links after a switch | nothing: they are not a generation |
/// | `IN_DELETE_SELF`, `IN_MOVE_SELF`, `IN_IGNORED`, `IN_UNMOUNT` | the folder was removed, moved away or unmounted | the last snapshot is kept; the nearest existing ancestor is watched for the folder's name to come back, then the folder is watched and read again |
/// | `IN_Q_OVERFLOW` | the kernel's queue overflowed | every folder is read again |
///
/// All the events waiting are read before any folder is, so a burst of swaps costs one read of
/// the last generation (rapid swaps coalesce); a snapshot equal to the last one is not delivered.
/// Where inotify cannot follow a folder — a network or FUSE file system (it sees only this
/// machine's writes), no instance or watch left (`fs.inotify.max_user_instances`,
/// `max_user_watches`) — the folder is read every second instead, and its snapshots carry
/// ``MountWarning/polled(reason:)``: delivery never goes silently stale. Otherwise nothing polls.
///
/// Bounded: at most ``maximumFolders`` folders; a subscriber's stream keeps only the newest
/// snapshot it has not taken yet.
package final class MountWatcher: Sendable {
    /// The process's watcher.
    package static let shared = MountWatcher()
    /// The most folders followed at once in a process.
    package static let maximumFolders = 256
    /// How often a folder inotify cannot follow is read, in milliseconds.
    static let pollMilliseconds: Int32 = 1000

    /// Called with each new snapshot, on the watcher's thread (or the subscriber's, for the first).
    package typealias Handler = @Sendable (MountedSnapshot) -> Void

    /// One subscription, to end with ``unsubscribe(_:)``.
    package struct Token: Sendable, Hashable {
        let folder: MountedFolder
        let id: UInt64
    }

    /// A followed folder's last snapshot and its subscribers; held while the folder is read and
    /// the snapshot delivered, so that every subscriber sees the snapshots in order.
    final class Registration: Sendable {
        struct Reading {
            var last: MountedSnapshot?
            var subscribers: [UInt64: Handler] = [:]
        }

        let folder: MountedFolder
        let reading = Mutex(Reading())

        init(folder: MountedFolder) {
            self.folder = folder
        }
    }

    /// How a folder is followed.
    private struct Followed {
        let registration: Registration
        /// Subscribers, counted here: the registration ends when the last one leaves.
        var subscribers = 0
        /// The watch on the folder itself.
        var watch: Int32?
        /// While the folder is missing: the watch on the nearest ancestor that exists, and the
        /// name in it that leads to the folder.
        var ancestor: (watch: Int32, path: String, next: String)?
        /// Why it is read every second, when it is.
        var polled: String?
        /// Whether its last snapshot was of a Kubernetes volume (only `..data` matters then).
        var isKubernetes = false
    }

    private struct State {
        var descriptor: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        var threadStarted = false
        var folders: [MountedFolder: Followed] = [:]
        /// The folders each watch serves (a folder's own watch, or an ancestor's).
        var users: [Int32: Set<MountedFolder>] = [:]
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())

    private init() {}

    /// What every watch asks for: names moved, made, removed or written in the folder, and the
    /// folder itself removed or moved (`IN_IGNORED`, `IN_UNMOUNT` and `IN_Q_OVERFLOW` come anyway).
    private static let mask = UInt32(IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR)

    // MARK: Subscribing

    /// Follows `folder`: `handler` is called at once with the snapshot now, then with each new
    /// one. Keep it short: it runs on the watcher's thread.
    /// - Throws: ``MountError`` when the folder cannot be read now, or
    ///   ``MountError/cannotWatch(folder:reason:)`` when ``maximumFolders`` are followed.
    package func subscribe(_ folder: MountedFolder, handler: @escaping Handler) throws(MountError) -> Token {
        let (registration, id, polled) = try state.withLock { state throws(MountError) -> (Registration, UInt64, String?) in
            let id = state.nextID
            state.nextID &+= 1
            if state.folders[folder] == nil {
                guard state.folders.count < Self.maximumFolders else {
                    throw .cannotWatch(folder: folder.path, reason: "this process already follows \(Self.maximumFolders) mounted folders; follow fewer (one provider per folder)")
                }
                ensureInstance(&state)
                state.folders[folder] = Followed(registration: Registration(folder: folder))
                follow(folder, &state)
                startThread(&state)
            }
            state.folders[folder]?.subscribers += 1
            guard let followed = state.folders[folder] else { throw .cannotWatch(folder: folder.path, reason: "it was not registered") }
            return (followed.registration, id, followed.polled)
        }
        do throws(MountError) {
            try registration.reading.withLock { reading throws(MountError) in
                let snapshot: MountedSnapshot
                if let last = reading.last {
                    snapshot = last
                } else {
                    snapshot = Self.marked(try folder.read(), polled: polled)
                }
                reading.last = snapshot
                reading.subscribers[id] = handler
                handler(snapshot)
            }
        } catch {
            release(folder, registration: registration)
            throw error
        }
        state.withLock { state in
            if let last = registration.reading.withLock({ $0.last }), state.folders[folder]?.registration === registration {
                state.folders[folder]?.isKubernetes = last.generation != nil
            }
        }
        wake()
        return Token(folder: folder, id: id)
    }

    /// Ends a subscription; the folder's watch goes with its last subscriber.
    package func unsubscribe(_ token: Token) {
        let registration = state.withLock { $0.folders[token.folder]?.registration }
        guard let registration else { return }
        let removed = registration.reading.withLock { $0.subscribers.removeValue(forKey: token.id) != nil }
        if removed { release(token.folder, registration: registration) }
    }

    /// One subscriber fewer; the last one ends the folder's registration and its watches.
    private func release(_ folder: MountedFolder, registration: Registration) {
        state.withLock { state in
            guard var followed = state.folders[folder], followed.registration === registration else { return }
            followed.subscribers -= 1
            guard followed.subscribers <= 0 else {
                state.folders[folder] = followed
                return
            }
            unfollow(folder, &state)
            state.folders[folder] = nil
        }
    }

    // MARK: Watches (under the state's lock)

    private func ensureInstance(_ state: inout State) {
        if state.wakeRead < 0 {
            // Glibc's Swift module has no pipe2: the flags are set after.
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends {
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                }
                state.wakeRead = ends[0]
                state.wakeWrite = ends[1]
            }
        }
        guard state.descriptor < 0 else { return }
        state.descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    }

    /// Watches `folder` itself, or — while it is missing — the nearest ancestor that exists; or
    /// marks it polled, with the reason.
    private func follow(_ folder: MountedFolder, _ state: inout State) {
        guard var followed = state.folders[folder] else { return }
        dropAncestor(folder, &followed, &state)
        defer { state.folders[folder] = followed }
        guard state.descriptor >= 0 else {
            followed.polled = "no inotify instance is left for this user; raise fs.inotify.max_user_instances (sysctl)"
            return
        }
        if let remote = RemoteFileSystem.name(of: folder.path) {
            followed.polled = "it is on \(remote), where inotify sees only this machine's writes"
        }
        // The ancestor may gain the next name between its watch and the check: go down again.
        for _ in 0..<64 {
            let watch = inotify_add_watch(state.descriptor, folder.path, Self.mask)
            if watch >= 0 {
                followed.watch = watch
                state.users[watch, default: []].insert(folder)
                if followed.polled?.hasPrefix("no inotify") == true || followed.polled?.hasPrefix("it could not") == true { followed.polled = nil }
                return
            }
            let code = Errno.current
            guard code == .noSuchFile || code == .notADirectory else {
                followed.polled = code == .noSpace
                    ? "no inotify watch is left for this user; raise fs.inotify.max_user_watches (sysctl)"
                    : "it could not be watched (\(code))"
                return
            }
            guard let ancestor = watchAncestor(of: folder.path, &state) else {
                followed.polled = "it could not be watched: no folder above it could be"
                return
            }
            followed.ancestor = ancestor
            state.users[ancestor.watch, default: []].insert(folder)
            var info = stat()
            guard stat(ancestor.path == "/" ? "/" + ancestor.next : ancestor.path + "/" + ancestor.next, &info) == 0 else { return }
            dropAncestor(folder, &followed, &state)
        }
    }

    /// The watch on the nearest ancestor of `path` that exists, and the name in it that leads
    /// towards `path`.
    private func watchAncestor(of path: String, _ state: inout State) -> (watch: Int32, path: String, next: String)? {
        var child = path
        while true {
            let parent = PrivateFolder.parent(of: child)
            let name = PrivateFolder.name(of: child)
            let watch = inotify_add_watch(state.descriptor, parent, Self.mask)
            if watch >= 0 { return (watch, parent, name) }
            let code = Errno.current
            guard code == .noSuchFile || code == .notADirectory, parent != child, parent != "/", parent != "." else { return nil }
            child = parent
        }
    }

    private func dropAncestor(_ folder: MountedFolder, _ followed: inout Followed, _ state: inout State) {
        guard let ancestor = followed.ancestor else { return }
        followed.ancestor = nil
        release(watch: ancestor.watch, of: folder, &state)
    }

    /// `folder` no longer uses `watch`; the watch is removed when nobody does.
    private func release(watch: Int32, of folder: MountedFolder, _ state: inout State) {
        state.users[watch]?.remove(folder)
        if state.users[watch]?.isEmpty ?? false {
            state.users[watch] = nil
            _ = inotify_rm_watch(state.descriptor, watch)
        }
    }

    private func unfollow(_ folder: MountedFolder, _ state: inout State) {
        guard var followed = state.folders[folder] else { return }
        dropAncestor(folder, &followed, &state)
        if let watch = followed.watch { release(watch: watch, of: folder, &state) }
        followed.watch = nil
        state.folders[folder] = followed
    }

    private func startThread(_ state: inout State) {
        guard !state.threadStarted else { return }
        state.threadStarted = true
        let thread = Thread { [self] in self.run() }
        thread.name = "RizqCore.MountWatcher"
        thread.start()
    }

    /// Wakes the thread, so that it sees a change of what it waits for (a folder now polled).
    private func wake() {
        let descriptor = state.withLock { $0.wakeWrite }
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(descriptor, &byte, 1)
    }

    // MARK: The thread

    private func run() {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let (descriptor, wakeRead, anyPolled) = state.withLock { state -> (Int32, Int32, Bool) in
                if state.descriptor < 0 {
                    ensureInstance(&state)
                    if state.descriptor >= 0 { for folder in Array(state.folders.keys) { follow(folder, &state) } }
                }
                return (state.descriptor, state.wakeRead, state.folders.values.contains { $0.polled != nil })
            }
            var waits = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&waits, nfds_t(waits.count), anyPolled ? Self.pollMilliseconds : -1)
            if ready < 0, Errno.current != .interrupted {
                // Nothing else to wait on: read every second rather than spin.
                _ = poll(nil, 0, Self.pollMilliseconds)
            }
            if waits[1].revents != 0 { drainWake(wakeRead) }
            var due: [MountedFolder: Bool] = [:]
            if descriptor >= 0, waits[0].revents != 0 { readEvents(descriptor, buffer: buffer, capacity: capacity, into: &due) }
            if ready == 0 {
                // The second is up: every polled folder is read.
                state.withLock { state in
                    for (folder, followed) in state.folders where followed.polled != nil { due[folder] = due[folder] ?? false }
                }
            }
            for (folder, forced) in due { refresh(folder, forced: forced) }
        }
    }

    private func drainWake(_ descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while Glibc.read(descriptor, &bytes, bytes.count) > 0 {}
    }

    /// Reads every event waiting (so that a burst of swaps is one read), noting which folders
    /// are due a read (`true`: even if `..data` names the generation already read).
    private func readEvents(_ descriptor: Int32, buffer: UnsafeMutableRawPointer, capacity: Int, into due: inout [MountedFolder: Bool]) {
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = Glibc.read(descriptor, buffer, capacity)
            if count < 0, Errno.current == .interrupted { continue }
            guard count > 0 else { return }
            var offset = 0
            while offset + headerSize <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                let name = nameLength > 0 ? String(validatingCString: (buffer + offset + headerSize).assumingMemoryBound(to: CChar.self)) ?? "" : ""
                offset += headerSize + nameLength
                handle(watch: event.wd, mask: event.mask, name: name, into: &due)
            }
        }
    }

    private func handle(watch: Int32, mask: UInt32, name: String, into due: inout [MountedFolder: Bool]) {
        state.withLock { state in
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                for folder in state.folders.keys { due[folder] = true }
                return
            }
            let gone = mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0
            for folder in state.users[watch] ?? [] {
                guard var followed = state.folders[folder] else { continue }
                if followed.watch == watch {
                    if gone {
                        // Removed, moved away or unmounted: keep the last snapshot, and follow
                        // the path until a folder is there again.
                        followed.watch = nil
                        state.folders[folder] = followed
                        if mask & UInt32(IN_IGNORED) != 0 {
                            state.users[watch]?.remove(folder)
                            if state.users[watch]?.isEmpty ?? false { state.users[watch] = nil }
                        } else {
                            release(watch: watch, of: folder, &state)
                        }
                        follow(folder, &state)
                        if state.folders[folder]?.watch != nil { due[folder] = true }
                    } else if name == "..data" || (!followed.isKubernetes && !name.hasPrefix("..") && !name.isEmpty) {
                        due[folder] = due[folder] ?? false
                    }
                } else if let ancestor = followed.ancestor, ancestor.watch == watch {
                    // The path towards the folder changed: a folder on the way came back, or went.
                    if gone || name == ancestor.next {
                        if mask & UInt32(IN_IGNORED) != 0 {
                            state.users[watch]?.remove(folder)
                            followed.ancestor = nil
                            state.folders[folder] = followed
                        }
                        follow(folder, &state)
                        if state.folders[folder]?.watch != nil { due[folder] = true }
                    }
                }
            }
        }
    }

    /// Reads `folder` again and hands a snapshot that differs from the last to every subscriber.
    /// Unless `forced`, a Kubernetes volume whose `..data` still names the last generation is
    /// not read at all.
    private func refresh(_ folder: MountedFolder, forced: Bool) {
        guard let (registration, polled) = state.withLock({ state -> (Registration, String?)? in
            state.folders[folder].map { ($0.registration, $0.polled) }
        }) else { return }
        let isKubernetes = registration.reading.withLock { reading -> Bool in
            guard !reading.subscribers.isEmpty else { return false }
            // A Kubernetes volume whose `..data` still names the last generation has nothing new.
            let link: String?? = reading.last?.generation == nil ? nil : .some(try? folder.dataLink())
            if !forced, let last = reading.last, let generation = last.generation, Self.marked(last, polled: polled) == last, link == .some(generation) {
                return true
            }
            var snapshot: MountedSnapshot
            do {
                snapshot = Self.marked(try folder.read(knownLink: link), polled: polled)
            } catch {
                guard let last = reading.last else { return false }
                snapshot = Self.marked(last, polled: polled).adding(.lastReadFailed(reason: "\(error)"))
            }
            guard snapshot != reading.last else { return snapshot.generation != nil }
            reading.last = snapshot
            for handler in reading.subscribers.values { handler(snapshot) }
            return snapshot.generation != nil
        }
        state.withLock { state in
            if state.folders[folder]?.registration === registration { state.folders[folder]?.isKubernetes = isKubernetes }
        }
    }

    /// `snapshot` with the watcher's own warnings as they are now: ``MountWarning/polled(reason:)``
    /// when the folder is polled; an earlier failed read's warning gone.
    static func marked(_ snapshot: MountedSnapshot, polled: String?) -> MountedSnapshot {
        var warnings = snapshot.warnings.filter { warning in
            switch warning {
            case .polled, .lastReadFailed: return false
            case .frozenSubPath, .replacedAtSource: return true
            }
        }
        if let polled { warnings.append(.polled(reason: polled)) }
        return MountedSnapshot(folder: snapshot.folder, layout: snapshot.layout, isSecrets: snapshot.isSecrets, entries: snapshot.entries, warnings: warnings)
    }
}

extension MountedFolder {
    /// The folder's snapshot now, then each new one as inotify sees the folder change: a
    /// Kubernetes volume's every new generation (rapid swaps may arrive as their last), a plain
    /// folder's every change. The stream keeps only the newest snapshot not yet taken; it ends
    /// its subscription when it ends (its task cancelled, or the stream dropped).
    ///
    /// ```swift
    /// for await snapshot in try MountedFolder("/etc/config").updates() {
    ///     apply(try snapshot.text(forKey: "log.level"))
    /// }
    /// ```
    ///
    /// If the folder is removed or replaced, the last snapshot stands until a folder is at the
    /// path again; then it is read, and delivered if it differs.
    /// - Throws: ``MountError`` when the folder cannot be read now.
    public func updates() throws(MountError) -> AsyncStream<MountedSnapshot> {
        let (stream, continuation) = AsyncStream<MountedSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let token = try MountWatcher.shared.subscribe(self) { snapshot in continuation.yield(snapshot) }
        continuation.onTermination = { _ in MountWatcher.shared.unsubscribe(token) }
        return stream
    }
}
