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
    private let temporary: String

    init(home: BenchHome, suitePath: String) throws {
        try self.init(folder: home.path + "/floor", name: "floor.json")
        try checkSameFileSystem(as: (suitePath as NSString).deletingLastPathComponent)
    }

    /// A floor that replaces `folder/name` (the folder made if missing), through a temporary
    /// file beside it; the cross-process floor's writer uses it in a process of its own.
    init(folder: String, name: String) throws {
        self.folder = folder
        target = folder + "/" + name
        temporary = folder + "/." + name + ".tmp"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Throws unless the floor's folder is on the same file system as `other` (a floor on
    /// another disk would measure that disk).
    func checkSameFileSystem(as other: String) throws {
        var floorInfo = stat()
        var otherInfo = stat()
        guard stat(folder, &floorInfo) == 0, stat(other, &otherInfo) == 0 else {
            throw BenchError("cannot stat \(folder) or \(other): errno \(errno)")
        }
        guard floorInfo.st_dev == otherInfo.st_dev else {
            throw BenchError("\(folder) and \(other) are on different file systems")
        }
    }

    /// The bytes of the suite's file as our last flush left them (read outside any timing).
    static func bytes(of path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        return [UInt8](data)
    }

    /// Nanoseconds to replace the floor's file with `bytes`, durably (`syncFolder` false: the
    /// rename is not flushed, as for the vault's generation record).
    func write(_ bytes: [UInt8], syncFolder: Bool = true) throws -> Double {
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
            guard syncFolder else { return }
            let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory < 0 || fsync(directory) != 0 { failure = failure ?? "directory fsync" }
            if directory >= 0 { close(directory) }
        }
        if let failure { throw BenchError("durable write floor: \(failure) failed: errno \(errno)") }
        return elapsed
    }
}
