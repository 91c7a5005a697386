import Foundation
import RizqPrefs

/// A root of suite files for one fuzzing process, on a RAM file system when there is one (a
/// flush's fsync costs nothing there), removed at exit.
///
/// Every input opens suites under new names: an open suite stays open for the life of the
/// process (as in an app), so a name used again would not read its file again. That costs some
/// memory per input; `scripts/fuzz` sets libFuzzer's `-rss_limit_mb` with that in mind.
public final class Scratch: @unchecked Sendable {
    /// The root (`RIZQ_PREFS_HOME` of the suites opened here).
    public let root: String
    private var counter = 0

    public init() {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        root = base + "/rizq-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: root + "/groups", withIntermediateDirectories: true)
        scratchRoot = root
        atexit { if let root = scratchRoot { try? FileManager.default.removeItem(atPath: root) } }
    }

    /// A group suite name not used before in this process.
    public func nextSuite() -> String {
        counter += 1
        return "group.fuzz.\(counter)"
    }

    /// The file of a group suite.
    public func path(of suite: String) -> String {
        root + "/groups/" + suite + ".json"
    }

    /// Opens a group suite of this root.
    public func open(_ suite: String) -> SuiteStore {
        do {
            return try SuiteStore(suite: suite, appID: "fuzz", root: root)
        } catch {
            require(false, "opening suite \(suite) threw: \(error)")
            fatalError("unreachable")
        }
    }

    /// Writes `bytes` as the file of `suite`, mode 0600.
    public func write(_ bytes: Data, as suite: String) {
        require(FileManager.default.createFile(atPath: path(of: suite), contents: bytes, attributes: [.posixPermissions: 0o600]), "cannot write \(suite)")
    }

    /// Opens, under a new name, a copy of the file `suite` wrote: what a fresh process reads.
    public func reopenCopy(of suite: String) -> SuiteStore {
        let copy = nextSuite()
        // No file (nothing was ever written): a fresh process finds none either, not an empty one.
        if let bytes = contents(ofFile: path(of: suite)) { write(bytes, as: copy) }
        return open(copy)
    }

    /// Removes the files of this input (suites, quarantined copies, locks), not the folder.
    public func clean() {
        let folder = root + "/groups"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}

/// The bytes of the file at `path`, read with read(2): `FileManager.contents(atPath:)` leaked
/// its 4 KiB buffer for a 10-byte file under this toolchain (LeakSanitizer's first finding
/// here, in Foundation, not in what is fuzzed).
public func contents(ofFile path: String) -> Data? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return bytes }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        bytes.append(contentsOf: buffer[0..<count])
    }
}

/// The root to remove at exit (an `atexit` handler cannot capture it).
nonisolated(unsafe) private var scratchRoot: String?
