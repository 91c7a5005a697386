import Foundation
import XCTest
@testable import RizqPrefs

/// What may stand at a suite's paths instead of its files: a FIFO, a device, a huge sparse
/// file, symbolic links to files elsewhere (and symbolic-link attacks). The
/// suite gets a clear error, nothing hangs, and nothing outside the suite folder is ever
/// created, truncated or overwritten: RizqPrefs never reads or writes through a link (decided:
/// a clear error, not a silent replacement of the link).
final class SpecialFileAtSuitePathTests: XCTestCase {
    private let suite = "group.com.rizq.test"

    /// A FIFO at the suite path: a plain open blocked forever (no writer ever comes).
    func testAFIFOAtTheSuitePathIsAClearErrorNotAHang() throws {
        let root = TemporaryRoot()
        try makeGroupsFolder(root)
        XCTAssertEqual(mkfifo(root.filePath(), 0o600), 0)
        XCTAssertThrowsError(try root.store()) { error in
            guard case SuiteStoreError.unreadable(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("a FIFO (named pipe), not a regular file"), reason)
            XCTAssertTrue("\(error)".contains("mv '"), "\(error)")
            XCTAssertFalse("\(error)".contains("chmod"), "\(error)")
        }
    }

    /// A character device at the suite path (mknod needs root; skipped otherwise).
    func testADeviceAtTheSuitePathIsAClearError() throws {
        let root = TemporaryRoot()
        try makeGroupsFolder(root)
        guard mknod(root.filePath(), S_IFCHR | 0o600, dev_t((1 << 8) | 5)) == 0 else { throw XCTSkip("mknod is not permitted here (not root): \(String(cString: strerror(errno)))") }
        XCTAssertThrowsError(try root.store()) { error in
            XCTAssertTrue("\(error)".contains("a character device, not a regular file"), "\(error)")
        }
    }

    /// A sparse 64 GiB file: its reported size used to be allocated at once.
    func testAFileOverTheSizeLimitIsRefusedWithoutReadingIt() throws {
        let root = TemporaryRoot()
        try makeGroupsFolder(root)
        let descriptor = open(root.filePath(), O_WRONLY | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(ftruncate(descriptor, 64 << 30), 0)
        close(descriptor)
        XCTAssertThrowsError(try root.store()) { error in
            XCTAssertTrue("\(error)".contains("65536 MiB, over the 256 MiB a suite file may hold"), "\(error)")
        }
        var info = stat()
        XCTAssertEqual(stat(root.filePath(), &info), 0)
        XCTAssertEqual(info.st_size, 64 << 30, "the file is left alone")
    }

    /// The suite file replaced by a link to a file elsewhere: not read (its contents would reach
    /// the app), not written through, not replaced.
    func testASuiteFileThatIsALinkIsNeitherReadNorWrittenThrough() throws {
        let root = TemporaryRoot()
        let outside = TemporaryRoot()
        let target = outside.path + "/victim.json"
        let original = Data("{\"secret\":\"do not read\"}".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: original))
        try makeGroupsFolder(root)
        XCTAssertEqual(symlink(target, root.filePath()), 0)

        XCTAssertThrowsError(try root.store()) { error in
            XCTAssertTrue("\(error)".contains("is a symbolic link"), "\(error)")
            XCTAssertFalse("\(error)".contains("do not read"), "\(error)")
        }
        // A link to a path that does not exist: not created either.
        let absent = outside.path + "/absent.json"
        unlink(root.filePath())
        XCTAssertEqual(symlink(absent, root.filePath()), 0)
        XCTAssertThrowsError(try root.store())
        XCTAssertEqual(FileManager.default.contents(atPath: target), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: absent))
    }

    /// The link appears while the app runs: its next write fails with the reason, and the
    /// file elsewhere is untouched.
    func testASuiteFileReplacedByALinkWhileOpenIsNotWrittenThrough() throws {
        let root = TemporaryRoot()
        let outside = TemporaryRoot()
        let target = outside.path + "/victim.json"
        let original = Data("{\"v\":1}".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: original))
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        XCTAssertEqual(unlink(root.filePath()), 0)
        XCTAssertEqual(symlink(target, root.filePath()), 0)
        store.set(2, forKey: "a")
        XCTAssertThrowsError(try store.flush()) { error in
            XCTAssertTrue("\(error)".contains("is a symbolic link"), "\(error)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: target), original)
        XCTAssertEqual(store.integer(forKey: "a"), 2, "the change stays in memory")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: root.filePath()), target)
    }

    /// The suite folder replaced by a link to a folder elsewhere: no file (suite, temporary,
    /// lock) is created there.
    func testASuiteFolderThatIsALinkGetsNoFiles() throws {
        let root = TemporaryRoot()
        let outside = TemporaryRoot()
        XCTAssertEqual(symlink(outside.path, root.path + "/groups"), 0)
        XCTAssertThrowsError(try root.store().flushing { $0.set(1, forKey: "a") }) { error in
            XCTAssertTrue("\(error)".contains("folder \(root.path)/groups is a symbolic link"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), [])
    }

    /// The lock file replaced by a link to a file elsewhere, or to a path that does not exist:
    /// the file is not truncated, the absent one not created; the write says why.
    func testALockFileThatIsALinkIsNotOpened() throws {
        let root = TemporaryRoot()
        let outside = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        let lockPath = root.path + "/groups/." + suite + ".lock"
        let target = outside.path + "/victim"
        let original = Data("keep me".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: original))
        for destination in [target, outside.path + "/absent"] {
            unlink(lockPath)
            XCTAssertEqual(symlink(destination, lockPath), 0)
            store.set(2, forKey: "a")
            XCTAssertThrowsError(try store.flush()) { error in
                XCTAssertTrue("\(error)".contains("lock file \(lockPath) is a symbolic link"), "\(error)")
            }
        }
        XCTAssertEqual(FileManager.default.contents(atPath: target), original)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), ["victim"])
        XCTAssertEqual(try root.fileObject()["a"] as? Int, 1, "the suite file is as it was")
    }

    private func makeGroupsFolder(_ root: TemporaryRoot) throws {
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
    }
}

extension SuiteStore {
    /// Runs `change` on this store, then flushes.
    func flushing(_ change: (SuiteStore) -> Void) throws {
        change(self)
        try flush()
    }
}
