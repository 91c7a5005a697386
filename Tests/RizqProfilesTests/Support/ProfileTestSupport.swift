import CLevelDB
import CSQLite
import Foundation
import XCTest
@_exported import RizqTestSupport
@_exported import RizqPrefs
@_exported import RizqSecrets
@testable import RizqImport
@testable import RizqProfiles

/// The shared corpus of real profiles (../shared/corpus/localstorage beside the package, or one
/// level up for a git worktree in a folder of worktrees), or a skip when absent. Its files hold
/// real (expired) credentials and personal data: tests read them in place or copy them into
/// their own temporary folders, and never print a value (only digests).
func requireCorpus() throws -> String {
    let repository = repositoryRoot()
    for parent in [repository.deletingLastPathComponent(), repository.deletingLastPathComponent().deletingLastPathComponent()] {
        let folder = parent.appendingPathComponent("shared/corpus/localstorage").path
        if FileManager.default.fileExists(atPath: folder) { return folder }
    }
    throw XCTSkip("../shared/corpus/localstorage is not present")
}

/// A product built beside the tests: `rizq-prefs`, `rizq-profiles-test-child`.
func builtProduct(_ name: String) -> String {
    let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var folder = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
    // Inside an .xctest bundle on some platforms: climb to the products folder.
    while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
    return folder.appendingPathComponent(name).path
}

/// A temporary folder for one test, removed afterwards.
final class TemporaryFolder {
    let path: String

    init(_ name: String = "rizq-profiles-test") {
        path = NSTemporaryDirectory() + name + "-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        _ = try? runCommand("/bin/chmod", ["-R", "u+rwx", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Makes the folder `relative` (and its parents) and returns its path.
    @discardableResult
    func folder(_ relative: String) -> String {
        let full = path + "/" + relative
        try? FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// Copies `source` (a file or a folder) to `relative`, writable, and returns the copy's path.
    func copy(_ source: String, to relative: String) throws -> String {
        let target = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        _ = try runCommand("/bin/chmod", ["-R", "u+w", target])
        return target
    }
}

/// The digest of an origin's items that the independent readers (a hand-written Python reader
/// of LevelDB's log and table files, and Python's sqlite3) computed for the corpus: SHA-256 over
/// the items sorted by key, each as `<utf8 length>:<key><utf8 length>:<value>`.
func originDigest(_ items: [(key: String, value: String)]) -> String {
    var bytes: [UInt8] = []
    for item in items.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
        bytes += Array("\(item.key.utf8.count):".utf8) + Array(item.key.utf8)
        bytes += Array("\(item.value.utf8.count):".utf8) + Array(item.value.utf8)
    }
    return InputDigest.hex(bytes)
}

/// The first 16 hex digits of the SHA-256 of a value's UTF-8 (to name a value without showing it).
func shortDigest(_ text: String) -> String {
    String(InputDigest.hex(Array(text.utf8)).prefix(16))
}

extension StoredOrigin {
    /// The items as text; fails the test for an item that is not valid Unicode.
    func textItems(file: StaticString = #filePath, line: UInt = #line) -> [(key: String, value: String)] {
        items.compactMap { item in
            guard let key = item.key.text, let value = item.value.text else {
                XCTFail("\(origin): an item is not valid Unicode", file: file, line: line)
                return nil
            }
            return (key, value)
        }
    }

    /// The value of `key`, if it is text.
    subscript(key: String) -> String? {
        items.first { $0.key.text == key }?.value.text
    }
}

/// Each file under `folder` with its SHA-256 and modification time (nanoseconds): what must not
/// change when a profile is read.
func fingerprint(_ folder: String) -> [String: String] {
    var result: [String: String] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return result }
    for case let relative as String in walker {
        var info = stat()
        guard lstat(folder + "/" + relative, &info) == 0 else { continue }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        if (info.st_mode & S_IFMT) == S_IFREG {
            let bytes = [UInt8](FileManager.default.contents(atPath: folder + "/" + relative) ?? Data())
            result[relative] = "\(InputDigest.hex(bytes)) \(modified) \(info.st_mode)"
        } else {
            result[relative] = "folder \(modified) \(info.st_mode)"
        }
    }
    return result
}

/// Writes a LevelDB database with the library, as Chromium would: for tests that need what the
/// corpus lacks (undecodable strings, many origins, a damaged table).
final class LevelDBWriter {
    private let handle: OpaquePointer
    private let writeOptions = leveldb_writeoptions_create()

    init(folder: String) throws {
        let options = leveldb_options_create()
        defer { leveldb_options_destroy(options) }
        leveldb_options_set_create_if_missing(options, 1)
        var error: UnsafeMutablePointer<CChar>?
        let opened = leveldb_open(options, folder, &error)
        if let error {
            defer { leveldb_free(error) }
            throw NSError(domain: "leveldb", code: 1, userInfo: [NSLocalizedDescriptionKey: String(cString: error)])
        }
        handle = try XCTUnwrap(opened)
    }

    deinit {
        leveldb_writeoptions_destroy(writeOptions)
        leveldb_close(handle)
    }

    func put(_ key: [UInt8], _ value: [UInt8]) throws {
        var error: UnsafeMutablePointer<CChar>?
        key.withUnsafeBufferPointer { keyBytes in
            value.withUnsafeBufferPointer { valueBytes in
                keyBytes.withMemoryRebound(to: CChar.self) { keyChars in
                    valueBytes.withMemoryRebound(to: CChar.self) { valueChars in
                        leveldb_put(handle, writeOptions, keyChars.baseAddress, keyChars.count, valueChars.baseAddress, valueChars.count, &error)
                    }
                }
            }
        }
        if let error {
            defer { leveldb_free(error) }
            throw NSError(domain: "leveldb", code: 2, userInfo: [NSLocalizedDescriptionKey: String(cString: error)])
        }
    }

    func delete(_ key: [UInt8]) throws {
        var error: UnsafeMutablePointer<CChar>?
        key.withUnsafeBufferPointer { keyBytes in
            keyBytes.withMemoryRebound(to: CChar.self) { leveldb_delete(handle, writeOptions, $0.baseAddress, $0.count, &error) }
        }
        if let error {
            defer { leveldb_free(error) }
            throw NSError(domain: "leveldb", code: 3, userInfo: [NSLocalizedDescriptionKey: String(cString: error)])
        }
    }

    /// Writes the memtable to a table file, as a long-running browser's compaction does.
    func compact() {
        leveldb_compact_range(handle, nil, 0, nil, 0)
    }

    /// A Chromium data key: `_`, the origin, NUL, then the key's stored bytes.
    static func dataKey(_ origin: String, _ keyBytes: [UInt8]) -> [UInt8] {
        [UInt8(ascii: "_")] + Array(origin.utf8) + [0] + keyBytes
    }

    /// Latin-1 (`0x01`) when every UTF-16 code unit fits in a byte, else UTF-16LE (`0x00`).
    static func chromiumBytes(_ text: String) -> [UInt8] {
        ChromiumStorageString.encode(text)
    }

    /// UTF-16LE with the `0x00` format byte, from code units (which may be lone surrogates).
    static func utf16Bytes(_ units: [UInt16]) -> [UInt8] {
        [0x00] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }
}

/// Runs SQL with the sqlite3 library on a new or existing database file.
func sqlite(_ path: String, _ statements: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw NSError(domain: "sqlite", code: 1) }
    defer { sqlite3_close(handle) }
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, statements, nil, nil, &message) != SQLITE_OK {
        let text = message.map { String(cString: $0) } ?? "error"
        sqlite3_free(message)
        throw NSError(domain: "sqlite", code: 2, userInfo: [NSLocalizedDescriptionKey: text])
    }
}

/// Reads `location` with the profile readers.
func readStorage(_ path: String, profile: String? = nil, locator: ProfileLocator = ProfileLocator()) throws -> ProfileStorage {
    try ProfileStorage.read(try locator.locate(.path(path), profile: profile))
}

/// Reads `path` while a running browser may write to `watched` (the storage it holds open), and
/// checks that the read itself changes nothing there: the fingerprint of `watched` is taken
/// before and after each read, and a read during which the browser wrote (a delayed commit) is
/// done again. A reader that changed the profile changes it in every round, and fails.
func readLeavingUnchanged(_ path: String, watched: String, rounds: Int = 10, file: StaticString = #filePath, line: UInt = #line) throws -> ProfileStorage {
    var changed: [String] = []
    for _ in 0..<rounds {
        let before = fingerprint(watched)
        let storage = try readStorage(path)
        let after = fingerprint(watched)
        if after == before { return storage }
        changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }
    XCTFail("\(watched) changed during each of \(rounds) reads (last: \(changed.joined(separator: ", "))): the read changes the profile", file: file, line: line)
    throw CocoaError(.fileWriteUnknown)
}

/// Reads `path` again after each change inotify reports in `watched`, until `done` holds for
/// what was read, and returns that: for a running browser that writes its storage when it
/// chooses (Chromium commits `localStorage` after a delay, and a browser that quits at once may
/// not have written it). Synchronised on the change stream; the only time limit is `limit`
/// (``BrowserProcess/hangLimit``), against a browser that never writes. Past it, the test fails
/// and this throws; with `failsAtTheLimit` false, it returns `nil` instead, for a caller that
/// starts the browser again.
func readOnceStored(
    _ path: String, watched: String, within limit: TimeInterval = BrowserProcess.hangLimit, failsAtTheLimit: Bool = true,
    file: StaticString = #filePath, line: UInt = #line, until done: (ProfileStorage) -> Bool
) throws -> ProfileStorage? {
    let events = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard events >= 0 else { throw CocoaError(.fileReadUnknown) }
    defer { close(events) }
    guard inotify_add_watch(events, watched, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)) >= 0 else {
        XCTFail("cannot watch \(watched): \(String(cString: strerror(errno)))", file: file, line: line)
        throw CocoaError(.fileReadUnknown)
    }
    let deadline = Date(timeIntervalSinceNow: limit)
    var last = "nothing read yet"
    while true {
        // Every change from here on is queued, so none between this read and the wait is lost.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while read(events, &buffer, buffer.count) > 0 {}
        do {
            let storage = try readStorage(path)
            if done(storage) { return storage }
            last = "origins \(storage.origins.map { "\($0.origin) (\($0.keyCount) keys)" })"
        } catch {
            last = "\(error)"
        }
        var descriptor = pollfd(fd: events, events: Int16(POLLIN), revents: 0)
        let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        if poll(&descriptor, 1, remaining) == 0 {
            guard failsAtTheLimit else { return nil }
            XCTFail("\(watched) never held what the browser stored (\(Int(limit)) s); last read: \(last)", file: file, line: line)
            throw CocoaError(.fileReadUnknown)
        }
    }
}
