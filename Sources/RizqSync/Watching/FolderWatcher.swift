import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Tells when files in one folder are created, replaced or removed (inotify), on a thread of
/// its own, until ``stop()``. A folder-sync engine installs a pulled file by renaming it into
/// place, so a replica that arrived is one `IN_MOVED_TO`.
final class FolderWatcher: @unchecked Sendable {
    // Unchecked: the descriptors are set once in init and closed once, by the thread, after stop().
    private let wakeWrite: Int32
    private let thread: Thread
    private let stopped = Mutex(false)

    /// Starts watching `folder`; `changed` gets each file name (on the watcher's thread), and
    /// `nil` when the folder itself went away. `nil` when the folder cannot be watched.
    init?(folder: String, changed: @escaping @Sendable (String?) -> Void) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(inotify, folder, mask) >= 0 else {
            close(inotify)
            return nil
        }
        // A socket pair, not a pipe: stop() after the thread has ended (the folder went away)
        // must not raise SIGPIPE, and send() can say so (MSG_NOSIGNAL).
        var pipeEnds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else {
            close(inotify)
            return nil
        }
        wakeWrite = pipeEnds[1]
        let wakeRead = pipeEnds[0]
        thread = Thread {
            Self.run(inotify: inotify, wake: wakeRead, changed: changed)
            close(inotify)
            close(wakeRead)
        }
        thread.name = "rizq-sync folder watcher"
        thread.start()
    }

    /// Stops watching; the thread ends on its own.
    func stop() {
        guard stopped.withLock({ stopped in defer { stopped = true }; return !stopped }) else { return }
        var byte: UInt8 = 1
        _ = send(wakeWrite, &byte, 1, Int32(MSG_NOSIGNAL))
        close(wakeWrite)
    }

    deinit { stop() }

    private static func run(inotify: Int32, wake: Int32, changed: @Sendable (String?) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            var names: [String?] = []
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let mask = raw.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        names.append(nil)
                    } else if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        // Events were lost: the round reads the whole folder anyway.
                        names.append("")
                    } else if length > 0 {
                        let bytes = raw[nameStart..<(nameStart + length)].prefix { $0 != 0 }
                        names.append(String(decoding: bytes, as: UTF8.self))
                    }
                    offset = nameStart + length
                }
            }
            for name in names { changed(name) }
            if names.contains(where: { $0 == nil }) { return }
        }
    }
}
