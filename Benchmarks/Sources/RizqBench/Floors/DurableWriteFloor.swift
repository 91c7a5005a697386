import Foundation

/// The durable write floor: `write` + `fsync` + `rename` + directory `fsync` of exactly the bytes
/// our flush wrote, on the same file system as the suite, with no encoding and no checks — what
/// any crash-safe replacement of that file costs on this disk.
///
/// It writes into a folder of its own beside the suites' (so that the suite's file watcher sees
/// none of it), replacing a file there each time as our flush replaces the suite's.
struct DurableWriteFloor {
    let folder: String
    let target: String

    init(home: BenchHome, suitePath: String) throws {
        folder = home.path + "/floor"
        target = folder + "/floor.json"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var floorInfo = stat()
        var suiteInfo = stat()
        let suiteFolder = (suitePath as NSString).deletingLastPathComponent
        guard stat(folder, &floorInfo) == 0, stat(suiteFolder, &suiteInfo) == 0 else {
            throw BenchError("cannot stat \(folder) or \(suiteFolder): errno \(errno)")
        }
        guard floorInfo.st_dev == suiteInfo.st_dev else {
            throw BenchError("\(folder) and \(suiteFolder) are on different file systems")
        }
    }

    /// The bytes of the suite's file as our last flush left them (read outside any timing).
    static func bytes(of path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        return [UInt8](data)
    }

    /// Nanoseconds to replace the floor's file with `bytes`, durably.
    func write(_ bytes: [UInt8]) throws -> Double {
        let temporary = folder + "/.floor.json.tmp"
        var failure: String?
        let elapsed = elapsedNanoseconds {
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { failure = "open"; return }
            var written = 0
            bytes.withUnsafeBytes { buffer in
                while written < buffer.count {
                    let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failure = "write"
                        return
                    }
                    written += count
                }
            }
            if fsync(descriptor) != 0 { failure = "fsync" }
            close(descriptor)
            if failure == nil, rename(temporary, target) != 0 { failure = "rename" }
            let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory < 0 || fsync(directory) != 0 { failure = failure ?? "directory fsync" }
            if directory >= 0 { close(directory) }
        }
        if let failure { throw BenchError("durable write floor: \(failure) failed: errno \(errno)") }
        return elapsed
    }
}
