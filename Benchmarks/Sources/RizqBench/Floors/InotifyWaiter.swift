import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The receiving half of the cross-process floor (issue 28): a bare program's wait for another
/// process's durable replacement of a file. One inotify watch on the folder (`IN_MOVED_TO`: the
/// writer's `rename` over the file), a thread of its own blocked in `read` on it, and on each
/// arrival of the file the file opened and read whole, the value parsed from its text, and the
/// arrival recorded in an ``ArrivalLog`` as ours is — no store, no lock, no dispatch.
///
/// It stops when a file named `stop` is renamed into the folder (``stop()``): the thread never
/// needs to be woken any other way, and never polls.
final class InotifyWaiter: @unchecked Sendable {
    /// The name of the file that stops the waiter.
    static let stopName = "stop"

    let folder: String
    let fileName: String
    private let descriptor: Int32
    private let arrivals: ArrivalLog
    private let finished = DispatchSemaphore(value: 0)
    /// Set by the thread before it signals `finished`; read after.
    private var failure: String?

    /// Watches `folder` for `fileName` renamed into it, recording each value read from it in
    /// `arrivals`; the watch is in place when this returns.
    init(folder: String, fileName: String, arrivals: ArrivalLog) throws {
        self.folder = folder
        self.fileName = fileName
        self.arrivals = arrivals
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw BenchError("inotify_init1 failed: errno \(errno)") }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_MOVED_TO)) >= 0 else {
            let error = errno
            close(descriptor)
            throw BenchError("inotify_add_watch \(folder) failed: errno \(error)")
        }
        let thread = Thread { [self] in
            failure = run()
            finished.signal()
        }
        thread.name = "inotify-waiter"
        thread.start()
    }

    deinit {
        close(descriptor)
    }

    /// Stops the thread (a `stop` file renamed into the folder) and waits for it, up to 5 s.
    func stop() throws {
        let temporary = folder + "/.stop.tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), rename(temporary, folder + "/" + Self.stopName) == 0 else {
            throw BenchError("cannot stop the inotify waiter in \(folder): errno \(errno)")
        }
        guard finished.wait(timeout: .now() + 5) == .success else { throw BenchError("the inotify waiter in \(folder) did not stop") }
        if let failure { throw BenchError("the inotify waiter in \(folder): \(failure)") }
    }

    /// The thread: reads events until the stop file arrives; returns why it failed, if it did.
    private func run() -> String? {
        let eventsSize = 4096
        let events = UnsafeMutableRawPointer.allocate(byteCount: eventsSize, alignment: 8)
        defer { events.deallocate() }
        // The file's text: a few bytes (one key), read whole.
        let textSize = 4096
        let text = UnsafeMutableRawPointer.allocate(byteCount: textSize, alignment: 8)
        defer { text.deallocate() }
        let path = folder + "/" + fileName
        let wanted = Array(fileName.utf8)
        let stop = Array(Self.stopName.utf8)
        while true {
            let count = read(descriptor, events, eventsSize)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return "read from inotify failed: errno \(errno)" }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of
            // the name, NUL-padded.
            var offset = 0
            while offset + 16 <= count {
                let length = Int(events.load(fromByteOffset: offset + 12, as: UInt32.self))
                let name = UnsafeRawBufferPointer(start: events + offset + 16, count: length).prefix { $0 != 0 }
                offset += 16 + length
                if name.elementsEqual(stop) { return nil }
                guard name.elementsEqual(wanted) else { continue }
                guard let value = Self.readValue(path: path, into: text, capacity: textSize) else {
                    return "cannot read a value from \(path)"
                }
                arrivals.record(value, at: wallClockNanoseconds())
            }
        }
    }

    /// Opens and reads the file whole, and parses the one integer its object holds (the file is
    /// `{"ping": N}`, formatted as our suites are).
    private static func readValue(path: String, into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let total = readFully(descriptor, into: buffer, count: capacity)
        close(descriptor)
        let bytes = UnsafeRawBufferPointer(start: buffer, count: total)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var value = 0
        var digits = 0
        for byte in bytes[(colon + 1)...] {
            if byte == UInt8(ascii: " ") && digits == 0 { continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}
