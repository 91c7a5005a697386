import Foundation
import XCTest
@testable import RizqPrefs

/// A suite file broken by hand under a running app: the broken file is
/// moved aside byte for byte, and the app neither empties what it holds nor loses its keys on
/// its next write.
final class FileBrokenUnderARunningAppTests: XCTestCase {
    private let broken = Data("{\"a\": 1,,}".utf8)

    /// The app picks up the change (a reload) before it writes again.
    func testAReloadOfABrokenFileKeepsWhatTheAppHolds() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        store.set("two", forKey: "b")
        try store.flush()
        try breakFile(root)
        store.synchronize()
        XCTAssertEqual(store.integer(forKey: "a"), 1, "memory is not emptied")
        XCTAssertEqual(store.string(forKey: "b"), "two")
        XCTAssertEqual(try movedAside(root), [broken])

        store.set(3, forKey: "c")
        try store.flush()
        let object = try root.fileObject()
        XCTAssertEqual(object["a"] as? Int, 1)
        XCTAssertEqual(object["b"] as? String, "two")
        XCTAssertEqual(object["c"] as? Int, 3)
    }

    /// The app writes before any reload: its write finds the broken file, moves it aside, and
    /// writes all it holds, not only its own new key.
    func testAWriteOverABrokenFileKeepsEveryKey() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        store.set("two", forKey: "b")
        try store.flush()
        try breakFile(root)
        store.set(3, forKey: "c")
        try store.flush()
        let object = try root.fileObject()
        XCTAssertEqual(object["a"] as? Int, 1)
        XCTAssertEqual(object["b"] as? String, "two")
        XCTAssertEqual(object["c"] as? Int, 3)
        XCTAssertEqual(try movedAside(root), [broken])
    }

    private func breakFile(_ root: TemporaryRoot) throws {
        // An editor saving in place: the same file, new bytes.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root.filePath()))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: broken)
        try handle.close()
    }

    private func movedAside(_ root: TemporaryRoot) throws -> [Data] {
        let folder = root.path + "/groups/"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".corrupt-") }
            .compactMap { FileManager.default.contents(atPath: folder + $0) }
    }
}
