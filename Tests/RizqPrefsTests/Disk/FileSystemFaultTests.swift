import Foundation
import XCTest
@testable import RizqPrefs
import RizqTestSupport

/// Real file-system faults: a full disk (a tiny tmpfs), a read-only mount (a
/// read-only bind mount), an immutable folder (chattr +i), loose modes. The tests run as root in
/// CI; where mounting is not permitted they skip, saying why. Every mount is undone, also when
/// an assertion fails.
final class FileSystemFaultTests: XCTestCase {
    /// `flush()` on a full disk: an error that says so; the old file intact byte for byte; the
    /// change still pending, and written by the next flush once there is room.
    func testAFullDiskKeepsTheOldFileAndTheChangeUntilThereIsRoom() throws {
        let root = TemporaryRoot()
        let mount = try Mount.tmpfs(at: root.path, size: "256k")
        defer { mount.undo() }
        let store = try root.store()
        store.set("small", forKey: "a")
        try store.flush()
        let before = try XCTUnwrap(root.fileBytes())

        let filler = root.path + "/filler"
        fillDisk(filler)
        let large = String(repeating: "x", count: 64 << 10)
        store.set(large, forKey: "b")
        XCTAssertThrowsError(try store.flush()) { error in
            XCTAssertTrue("\(error)".contains("the disk is full"), "\(error)")
            XCTAssertTrue("\(error)".contains("the previous file is intact"), "\(error)")
        }
        XCTAssertEqual(root.fileBytes(), before, "the old file, byte for byte")
        XCTAssertEqual(store.string(forKey: "b"), large, "the change is still there")
        XCTAssertEqual(try temporaries(root), [], "no temporary file left behind")

        XCTAssertEqual(unlink(filler), 0)
        try store.flush()
        XCTAssertEqual(try root.fileObject()["b"] as? String, large, "written once there is room")
        XCTAssertEqual(try root.fileObject()["a"] as? String, "small")
    }

    /// A read-only mount: reads work (in this process and in a new one), writes say why, the
    /// file is as it was.
    func testAReadOnlyMountReadsAndRefusesWritesSayingWhy() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        let before = try XCTUnwrap(root.fileBytes())
        let mount = try Mount.readOnlyBind(root.path)
        defer { mount.undo() }

        let read = try Child.run(root, "group.com.rizq.test", ["read", "a:int"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, "1\n")
        let write = try Child.run(root, "group.com.rizq.test", ["set-json", "a", "2"])
        XCTAssertEqual(write.status, 1)
        XCTAssertTrue(write.stderr.contains("the file system is read-only"), write.stderr)

        store.set(2, forKey: "a")
        XCTAssertThrowsError(try store.flush()) { error in
            XCTAssertTrue("\(error)".contains("the file system is read-only"), "\(error)")
        }
        XCTAssertEqual(store.integer(forKey: "a"), 2)
        XCTAssertEqual(root.fileBytes(), before)
    }

    /// An immutable suite folder (chattr +i): reads work, writes say why.
    func testAnImmutableFolderReadsAndRefusesWritesSayingWhy() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        let before = try XCTUnwrap(root.fileBytes())
        let folder = root.path + "/groups"
        guard geteuid() == 0, runQuietly("/usr/bin/chattr", ["+i", folder]) else { throw XCTSkip("chattr +i needs root and a file system that supports it") }
        defer { _ = runQuietly("/usr/bin/chattr", ["-i", folder]) }

        let read = try Child.run(root, "group.com.rizq.test", ["read", "a:int"])
        XCTAssertEqual(read.stdout, "1\n", read.stderr)
        store.set(2, forKey: "a")
        XCTAssertThrowsError(try store.flush()) { error in
            XCTAssertTrue("\(error)".contains("immutable"), "\(error)")
        }
        XCTAssertEqual(root.fileBytes(), before)
    }

    /// Loose modes left by hand or by another tool: the file is 0600 again after the next
    /// write (a write replaces it with a new 0600 file); the folder is reported by `doctor`
    /// with its fix.
    func testLooseModesAreTightenedByAWriteOrReportedWithTheFix() throws {
        let root = TemporaryRoot()
        let folder = root.path + "/groups"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root.filePath(), contents: Data("{\"a\":1}".utf8)))
        XCTAssertEqual(chmod(root.filePath(), 0o644), 0)
        XCTAssertEqual(chmod(folder, 0o755), 0)

        let store = try root.store()
        store.set(2, forKey: "b")
        try store.flush()
        var info = stat()
        XCTAssertEqual(stat(root.filePath(), &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try root.fileObject()["a"] as? Int, 1)

        let findings = SuiteCatalog(root: root.path).inspect()
        let report = findings.first { $0.path == folder }
        XCTAssertEqual(report?.severity, .warning, "\(findings)")
        XCTAssertEqual(report?.fix, "chmod 700 '\(folder)'")
    }

    private func temporaries(_ root: TemporaryRoot) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path + "/groups").filter { $0.contains(".tmp-") }
    }
}
