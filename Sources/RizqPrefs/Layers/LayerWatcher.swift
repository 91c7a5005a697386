import Dispatch
import Foundation
import RizqCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Tells open suites when a file of their layers may have changed — an administrator's layer
/// file or drop-in, an installed schema — whether or not its folder exists yet: one inotify
/// instance for the process, read by one thread, as ``FileWatcher`` does for suite files.
///
/// A layer folder usually does not exist (`/etc/xdg/rizq-prefs/managed/apps/<app>` is made only
/// by an administrator who locks something), so each followed folder is watched together with
/// every folder above it, from the first that exists: an event for the next name on the way (a
/// folder made, removed, renamed, or its owner or mode changed) makes the watcher look again and
/// go one level deeper; an event in the folder itself for one of the names it follows (a file
/// written, replaced, removed, `chmod`ed) tells the suite. Nothing is polled while inotify works.
///
/// Where inotify cannot (no instance or no watch left: ``InotifyLimits``), the followed folders
/// are looked at every ``pollInterval`` instead, so a lock still arrives.
final class LayerWatcher: Sendable {
    static let shared = LayerWatcher()

    typealias Handler = @Sendable () -> Void

    /// How often a folder inotify cannot follow is looked at.
    static let pollInterval: DispatchTimeInterval = .seconds(1)
    /// The events every watch asks for: a name made, removed, renamed, written or `chmod`ed in
    /// the folder; the folder itself removed or renamed.
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// One followed folder.
    private struct Target {
        /// The folder's path, its names from `/`, and the path of each folder on the way
        /// (`prefixes[0]` is `/`, `prefixes[components.count]` the folder itself).
        var folder: String
        var components: [String]
        var prefixes: [String]
        /// The names in it that count (`nil`: every name).
        var names: Set<String>?
        /// How many names of the path, from `/`, lie above the highest folder watched (the base
        /// folder the caller named, such as `/etc/xdg`): renaming any folder from there down is seen.
        var baseLevel: Int
        var changed: Handler
        /// Whether inotify cannot follow it (it is polled).
        var polled = false
    }

    /// What an event on a watched folder can mean for a target: its next name on the way, or
    /// (`nil`) the target folder itself.
    private struct Interest: Hashable {
        var target: Int
        var name: String?
    }

    private struct State {
        var descriptor: Int32 = -1
        var instanceRefused = false
        var readerStarted = false
        var pollerStarted = false
        var nextID = 0
        var targets: [Int: Target] = [:]
        /// Each watched folder: its watch and who cares.
        var watches: [String: (watch: Int32, interests: Set<Interest>)] = [:]
        var byWatch: [Int32: Set<String>] = [:]
        /// Who waits for a name to appear in a folder (``whenAppears(_:in:_:)``), by the name's
        /// path; their interest in the folder is the target ``gateTarget``.
        var gates: [String: [Handler]] = [:]
    }

    /// The target of a gate's interest (no target has it).
    private static let gateTarget = -1

    private let state = Mutex(State())

    private init() {}

    /// Follows `names` in `folder` (every name when `nil`), which need not exist, and every folder
    /// from `base` (a folder above it, such as `/etc/xdg`) down to it: `changed` is called (on the
    /// watcher's thread) whenever one of them, or a folder on the way, may have changed.
    func watch(folder: String, names: Set<String>?, base: String, changed: @escaping Handler) {
        let (components, prefixes) = Self.components(of: folder)
        let baseLevel = min(components.count, Self.components(of: base).names.count)
        state.withLock { state in
            ensureInstance(&state)
            let id = state.nextID
            state.nextID += 1
            state.targets[id] = Target(folder: folder, components: components, prefixes: prefixes, names: names, baseLevel: baseLevel, changed: changed)
            follow(id, &state)
            startThreads(&state)
        }
    }

    /// Calls `appeared` once (on the watcher's thread, or at once), when `name` appears in the
    /// existing folder `folder` — made, or renamed there — or when `folder` goes. The cheap way to
    /// follow the usual case, where no layer folder exists at all: each suite waits at the door
    /// (`/etc/xdg`, for `rizq-prefs`), one watch for every suite, and follows its own folders
    /// (``watch(folder:names:base:changed:)``) only once the door opens.
    func whenAppears(_ name: String, in folder: String, _ appeared: @escaping Handler) {
        let path = folder + "/" + name
        let now = state.withLock { state -> Bool in
            ensureInstance(&state)
            guard state.descriptor >= 0 else { return true }
            let interest = Interest(target: Self.gateTarget, name: name)
            if var existing = state.watches[folder] {
                existing.interests.insert(interest)
                state.watches[folder] = existing
            } else {
                let watch = inotify_add_watch(state.descriptor, folder, Self.mask)
                guard watch >= 0 else {
                    if errno == ENOSPC { InotifyLimits.warnNoWatch(folder) }
                    return true
                }
                state.watches[folder] = (watch, [interest])
                state.byWatch[watch, default: []].insert(folder)
            }
            state.gates[path, default: []].append(appeared)
            startThreads(&state)
            // It may have appeared between the caller's look and the watch.
            guard Self.exists(path) else { return false }
            state.gates[path]?.removeLast()
            return true
        }
        if now { appeared() }
    }

    private func ensureInstance(_ state: inout State) {
        guard state.descriptor < 0, !state.instanceRefused else { return }
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        if descriptor >= 0 {
            state.descriptor = descriptor
        } else {
            state.instanceRefused = true
            InotifyLimits.warnNoInstance(errno)
        }
    }

    // MARK: Watches (under the state's lock)

    /// Watches every existing folder on the way to the target, from its base (or, when the base
    /// does not exist, the deepest folder above it that does) down to the target itself when it
    /// exists; marks the target polled when a watch could not be had.
    private func follow(_ id: Int, _ state: inout State) {
        guard let target = state.targets[id] else { return }
        var polled = state.descriptor < 0
        // The deepest existing folder on the way, then every existing one below it.
        // Down from the base (which usually exists, as /etc/xdg does, while what is below it
        // usually does not): the deepest existing folder in a stat or two.
        var depth = target.baseLevel
        while depth > 0, !Self.isFolder(target.prefixes[depth]) { depth -= 1 }
        while depth < target.components.count, Self.isFolder(target.prefixes[depth + 1]) { depth += 1 }
        let first = min(target.baseLevel, max(0, depth - 1))
        for level in first...depth where state.descriptor >= 0 {
            let path = target.prefixes[level]
            let interest = Interest(target: id, name: level < target.components.count ? target.components[level] : nil)
            if var existing = state.watches[path] {
                existing.interests.insert(interest)
                state.watches[path] = existing
                continue
            }
            let watch = inotify_add_watch(state.descriptor, path, Self.mask)
            guard watch >= 0 else {
                if errno == ENOSPC { InotifyLimits.warnNoWatch(path) }
                polled = true
                continue
            }
            state.watches[path] = (watch, [interest])
            state.byWatch[watch, default: []].insert(path)
        }
        state.targets[id]?.polled = polled
    }

    private func startThreads(_ state: inout State) {
        if state.descriptor >= 0, !state.readerStarted {
            state.readerStarted = true
            let descriptor = state.descriptor
            let reader = Thread { [self] in self.read(descriptor) }
            reader.name = "RizqPrefs.LayerWatcher"
            reader.start()
        }
        if !state.pollerStarted, state.targets.values.contains(where: \.polled) {
            state.pollerStarted = true
            let poller = Thread { [self] in self.poll() }
            poller.name = "RizqPrefs.LayerPoller"
            poller.start()
        }
    }

    // MARK: The inotify thread

    private func read(_ descriptor: Int32) {
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            guard let count = try? DescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else { return }
            var due: Set<Int> = []
            var opened: [Handler] = []
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                let name = nameLength > 0 ? String(validatingCString: (buffer + offset + headerSize).assumingMemoryBound(to: CChar.self)) : nil
                offset += headerSize + nameLength
                state.withLock { state in
                    // Gates first: a folder gone takes its watch out of the table below.
                    opened += Self.gates(for: event, name: name, &state)
                    due.formUnion(Self.targets(for: event, name: name, &state))
                }
            }
            for handler in opened { handler() }
            guard !due.isEmpty else { continue }
            let handlers = state.withLock { state -> [Handler] in
                for id in due { follow(id, &state) }
                startThreads(&state)
                return due.compactMap { state.targets[$0]?.changed }
            }
            for handler in handlers { handler() }
        }
    }

    /// The targets an event concerns.
    private static func targets(for event: inotify_event, name: String?, _ state: inout State) -> Set<Int> {
        let mask = Int32(bitPattern: event.mask)
        if mask & Int32(IN_Q_OVERFLOW) != 0 { return Set(state.targets.keys) }
        guard let paths = state.byWatch[event.wd] else { return [] }
        var due: Set<Int> = []
        for path in paths {
            guard let watched = state.watches[path] else { continue }
            if mask & Int32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
                // The folder went: every target on its way looks again (from a folder above).
                due.formUnion(watched.interests.map(\.target).filter { $0 != gateTarget })
                if mask & Int32(IN_IGNORED) != 0 {
                    state.watches[path] = nil
                    state.byWatch[event.wd]?.remove(path)
                }
                continue
            }
            guard let name else { continue }
            for interest in watched.interests where interest.target != gateTarget {
                if let next = interest.name {
                    if next == name { due.insert(interest.target) }
                } else if let names = state.targets[interest.target]?.names {
                    if names.contains(name) { due.insert(interest.target) }
                } else {
                    due.insert(interest.target)
                }
            }
        }
        if state.byWatch[event.wd]?.isEmpty == true { state.byWatch[event.wd] = nil }
        return due
    }

    /// The handlers of the gates an event opens: a name that appeared, or the folder gone (each
    /// gate's handler then looks again itself). Each is taken out: a gate opens once.
    private static func gates(for event: inotify_event, name: String?, _ state: inout State) -> [Handler] {
        let mask = Int32(bitPattern: event.mask)
        let everything = mask & Int32(IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0
        guard everything || mask & Int32(IN_CREATE | IN_MOVED_TO) != 0 else { return [] }
        let paths = mask & Int32(IN_Q_OVERFLOW) != 0 ? Set(state.watches.keys) : (state.byWatch[event.wd] ?? [])
        var opened: [Handler] = []
        for folder in paths {
            guard var watched = state.watches[folder] else { continue }
            for interest in watched.interests where interest.target == gateTarget && (everything || interest.name == name) {
                guard let gateName = interest.name else { continue }
                opened += state.gates.removeValue(forKey: folder + "/" + gateName) ?? []
                watched.interests.remove(interest)
            }
            if state.watches[folder] != nil { state.watches[folder] = watched }
        }
        return opened
    }

    // MARK: The poller

    /// Runs while some folder cannot be watched: tells its suites every ``pollInterval`` (they
    /// read their layers again and report only what differs), and tries the watch again.
    private func poll() {
        while true {
            Thread.sleep(forTimeInterval: 1)
            let handlers = state.withLock { state -> [Handler] in
                let polled = state.targets.filter(\.value.polled).map(\.key)
                for id in polled { follow(id, &state) }
                return polled.compactMap { state.targets[$0]?.changed }
            }
            for handler in handlers { handler() }
        }
    }

    /// The names of the absolute `path` (empty ones left out) and the path of each folder on the
    /// way, `/` first: one pass over its bytes.
    static func components(of path: String) -> (names: [String], prefixes: [String]) {
        var names: [String] = []
        var prefixes = ["/"]
        var current = ""
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let name = String(decoding: part, as: UTF8.self)
            current += "/" + name
            names.append(name)
            prefixes.append(current)
        }
        return (names, prefixes)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
