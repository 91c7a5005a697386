import Foundation
import RizqCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One inotify instance for the whole process, read by one background thread. It watches the
/// folders of open suites (a rename replaces the file, so the file itself cannot be watched)
/// and tells the suite whose file name an event carries.
final class FileWatcher: Sendable {
    static let shared = FileWatcher()

    typealias Handler = @Sendable () -> Void

    private struct State {
        var descriptor: Int32 = -1
        var started = false
        /// watch descriptor → folder path
        var folders: [Int32: String] = [:]
        /// folder path → watch descriptor
        var watches: [String: Int32] = [:]
        /// folder path → file name → handlers
        var handlers: [String: [String: [Handler]]] = [:]
    }

    private let state = Mutex(State())

    private init() {}

    /// Calls `handler` (on the watcher thread) whenever `fileName` in `folder` is written,
    /// replaced, or removed. Returns `false` when inotify is unavailable; the suite then sees
    /// other processes' changes only when it writes.
    @discardableResult
    func watch(folder: String, fileName: String, handler: @escaping Handler) -> Bool {
        state.withLock { state in
            if state.descriptor < 0 {
                state.descriptor = inotify_init1(Int32(IN_CLOEXEC))
                guard state.descriptor >= 0 else { return false }
            }
            if state.watches[folder] == nil {
                let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_CREATE)
                let watch = inotify_add_watch(state.descriptor, folder, mask)
                guard watch >= 0 else { return false }
                state.watches[folder] = watch
                state.folders[watch] = folder
            }
            state.handlers[folder, default: [:]][fileName, default: []].append(handler)
            if !state.started {
                state.started = true
                let descriptor = state.descriptor
                let thread = Thread { [self] in self.run(descriptor) }
                thread.name = "RizqPrefs.FileWatcher"
                thread.start()
            }
            return true
        }
    }

    private func run(_ descriptor: Int32) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            guard let count = try? DescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else { return }
            var due: [Handler] = []
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                var name = ""
                if nameLength > 0 {
                    let namePointer = (buffer + offset + headerSize).assumingMemoryBound(to: CChar.self)
                    name = String(cString: namePointer)
                }
                offset += headerSize + nameLength
                let handlers = state.withLock { state -> [Handler] in
                    guard let folder = state.folders[event.wd] else { return [] }
                    return state.handlers[folder]?[name] ?? []
                }
                due.append(contentsOf: handlers)
            }
            // The suite coalesces several events (write, then rename) into one look at the file.
            for handler in due { handler() }
        }
    }
}
