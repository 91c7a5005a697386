import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The floor of `mount-swap`: a bare program's wait for kubelet's next generation. One inotify
/// watch on the volume's folder (`IN_MOVED_TO`), a thread of its own blocked in `read` on it,
/// and on `..data`'s arrival the one file opened through the new link (`FOLDER/..data/ping`),
/// read whole, its number parsed, the arrival recorded in an ``ArrivalLog`` as ours is — no
/// generation check, no trust check, no listing, no hand-over to another thread.
///
/// With `wholeGeneration` (issue 51, the row's second floor) it does on each arrival what any
/// reader of one consistent generation must: `readlink` of `..data`, every file of the
/// generation's folder listed, opened (`O_NOFOLLOW`), `fstat`'d and read whole, then `readlink`
/// again (a swap meanwhile reads the new generation instead) — still no trust rules, no copies
/// kept, no hand-over to another thread.
///
/// It stops when a file named `stop` is renamed into the folder (``stop()``).
final class DataSwapWaiter: @unchecked Sendable {
    let folder: String
    private let wholeGeneration: Bool
    private let descriptor: Int32
    private let arrivals: ArrivalLog
    private let finished = DispatchSemaphore(value: 0)
    /// Set by the thread before it signals `finished`; read after.
    private var failure: String?

    /// Watches `folder`, recording each `ping` value read after a swap; in place when this returns.
    init(folder: String, arrivals: ArrivalLog, wholeGeneration: Bool = false) throws {
        self.folder = folder
        self.arrivals = arrivals
        self.wholeGeneration = wholeGeneration
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
        thread.name = "data-swap-waiter"
        thread.start()
    }

    deinit { close(descriptor) }

    /// Stops the thread (a `stop` file renamed into the folder) and waits for it, up to 5 s.
    func stop() throws {
        let temporary = folder + "/.stop.tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), rename(temporary, folder + "/stop") == 0 else {
            throw BenchError("cannot stop the ..data waiter in \(folder): errno \(errno)")
        }
        guard finished.wait(timeout: .now() + 5) == .success else { throw BenchError("the ..data waiter in \(folder) did not stop") }
        if let failure { throw BenchError("the ..data waiter in \(folder): \(failure)") }
    }

    private func run() -> String? {
        let eventsSize = 4096
        let events = UnsafeMutableRawPointer.allocate(byteCount: eventsSize, alignment: 8)
        defer { events.deallocate() }
        let textSize = 4096
        let text = UnsafeMutableRawPointer.allocate(byteCount: textSize, alignment: 8)
        defer { text.deallocate() }
        let path = folder + "/..data/ping"
        let data = Array("..data".utf8)
        let stop = Array("stop".utf8)
        while true {
            let count = read(descriptor, events, eventsSize)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return "read from inotify failed: errno \(errno)" }
            var offset = 0
            while offset + 16 <= count {
                let length = Int(events.load(fromByteOffset: offset + 12, as: UInt32.self))
                let name = UnsafeRawBufferPointer(start: events + offset + 16, count: length).prefix { $0 != 0 }
                offset += 16 + length
                if name.elementsEqual(stop) { return nil }
                guard name.elementsEqual(data) else { continue }
                let total: Int
                if wholeGeneration {
                    guard let read = readGeneration(into: text, count: textSize) else { return "cannot read the generation in \(folder): errno \(errno)" }
                    total = read
                } else {
                    let file = open(path, O_RDONLY | O_CLOEXEC)
                    guard file >= 0 else { return "cannot open \(path): errno \(errno)" }
                    total = readFully(file, into: text, count: textSize)
                    close(file)
                }
                var value = 0
                for byte in UnsafeRawBufferPointer(start: text, count: total) {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                arrivals.record(value, at: wallClockNanoseconds())
            }
        }
    }

    /// The generation `..data` names read whole (see the type's notes); `ping`'s bytes are left in
    /// `text`, and their count returned. `nil` when the folder cannot be read.
    private func readGeneration(into text: UnsafeMutableRawPointer, count textSize: Int) -> Int? {
        let link = folder + "/..data"
        var target = [CChar](repeating: 0, count: 4096)
        let scratchSize = 1 << 16
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchSize, alignment: 8)
        defer { scratch.deallocate() }
        while true {
            let length = readlink(link, &target, target.count - 1)
            guard length > 0 else { return nil }
            let generation = folder + "/" + String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let listing = opendir(generation) else { return nil }
            var pingBytes = 0
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let file = open(generation + "/" + name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                guard file >= 0 else { closedir(listing); return nil }
                var info = stat()
                guard fstat(file, &info) == 0 else { close(file); closedir(listing); return nil }
                if name == "ping" {
                    pingBytes = readFully(file, into: text, count: textSize)
                } else {
                    _ = readFully(file, into: scratch, count: min(Int(info.st_size), scratchSize))
                }
                close(file)
            }
            closedir(listing)
            var again = [CChar](repeating: 0, count: 4096)
            let lengthAgain = readlink(link, &again, again.count - 1)
            if lengthAgain == length, again[..<lengthAgain] == target[..<length] { return pingBytes }
        }
    }
}
