import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// FileStamp's two questions on real files: `==` (is the file still what was read?) moves with
/// any write, even one that sets the modification time back; `isSameVersion` (is this the file
/// that was written?) survives the rename into place and a chown.
final class FileStampTests: XCTestCase {
    func testAnUntouchedFileKeepsItsStampAndItsHash() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{}")
        let first = try XCTUnwrap(FileStamp.of(path))
        let second = try XCTUnwrap(FileStamp.of(path))
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.hashValue, second.hashValue)
        XCTAssertEqual(first.version, second.version)
        let info = fileInfo(path)
        XCTAssertEqual(first.inode, UInt64(info.st_ino))
        XCTAssertEqual(first.size, 2)
        XCTAssertEqual(first.owner, FileOwner(user: info.st_uid, group: info.st_gid))
        XCTAssertEqual(first.mode, UInt32(S_IFREG) | 0o600)
        XCTAssertEqual(first.modifiedTime, Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        XCTAssertNil(FileStamp.of(folder.file("missing")))
    }

    /// A write in place that keeps the size and sets the modification time back (`touch -d`)
    /// fools `isSameVersion`, never `==`: the change time, which no user can set, moved.
    func testAWriteInPlaceWithTheModificationTimeSetBackIsStillANewStamp() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{\"a\":1}")
        let before = try XCTUnwrap(FileStamp.of(path))
        waitForTheClockToPass(before)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.write(Data("{\"a\":2}".utf8))
        try handle.close()
        var times = [
            timespec(tv_sec: before.modifiedSeconds, tv_nsec: before.modifiedNanoseconds),
            timespec(tv_sec: before.modifiedSeconds, tv_nsec: before.modifiedNanoseconds),
        ]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        let after = try XCTUnwrap(FileStamp.of(path))
        XCTAssertTrue(after.isSameVersion(as: before), "same inode, size and modification time")
        XCTAssertNotEqual(after, before, "the change time moved")
    }

    /// The rename into place moves the renamed file's change time: the writer that named its
    /// version before the rename still recognises it; a reader's `==` does not.
    func testARenameKeepsTheVersionAndMovesTheStamp() throws {
        let folder = ScratchFolder()
        let temporary = folder.write(".suite.json.tmp-1", "{}")
        let written = try XCTUnwrap(FileStamp.of(temporary))
        waitForTheClockToPass(written)
        XCTAssertEqual(rename(temporary, folder.file("suite.json")), 0)
        let installed = try XCTUnwrap(FileStamp.of(folder.file("suite.json")))
        XCTAssertTrue(installed.isSameVersion(as: written))
        XCTAssertNotEqual(installed, written)
    }

    /// An atomic replace with the same bytes is a new file: a new inode, a new version.
    func testAReplaceWithTheSameBytesIsANewVersion() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{}")
        let before = try XCTUnwrap(FileStamp.of(path))
        let after = try AtomicFile.write(Array("{}".utf8), to: path)
        XCTAssertNotEqual(after.inode, before.inode)
        XCTAssertFalse(after.isSameVersion(as: before))
        XCTAssertNotEqual(after.version, before.version)
        XCTAssertEqual(FileStamp.of(path), after, "the stamp the replace returned is the file's")
    }

    /// Owner and mode are carried, not compared: a chown makes no new version.
    func testAChownIsNotANewVersion() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a file to another user")
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{}")
        let before = try XCTUnwrap(FileStamp.of(path))
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        let after = try XCTUnwrap(FileStamp.of(path))
        XCTAssertTrue(after.isSameVersion(as: before))
        XCTAssertEqual(after.owner, FileOwner(user: 65534, group: 65534))
        XCTAssertEqual(FileOwner.of(path), FileOwner(user: 65534, group: 65534))
    }

    /// `of(path)` stamps a final link itself; `of(descriptor:)` the open file, whatever the path
    /// holds since.
    func testALinkIsStampedItselfAndADescriptorStampsTheFileItOpened() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{}")
        let link = folder.file("link")
        XCTAssertEqual(symlink(path, link), 0)
        XCTAssertEqual(try XCTUnwrap(FileStamp.of(link)).mode & UInt32(S_IFMT), UInt32(S_IFLNK))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let opened = try XCTUnwrap(FileStamp.of(descriptor: descriptor))
        try AtomicFile.write(Array("{\"new\":1}".utf8), to: path)
        XCTAssertEqual(FileStamp.of(descriptor: descriptor)?.version, opened.version, "still the file that was opened")
        XCTAssertNotEqual(FileStamp.of(path)?.inode, opened.inode)
        XCTAssertNil(FileStamp.of(descriptor: -1))
    }

    /// Waits (looking at the clock, not sleeping a fixed time) until the kernel's coarse clock,
    /// which file times are taken from, is past `stamp`'s change time: the next change then has
    /// a change time of its own.
    private func waitForTheClockToPass(_ stamp: FileStamp) {
        XCTAssertTrue(eventually {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME_COARSE, &now)
            return (now.tv_sec, now.tv_nsec) > (stamp.changedSeconds, stamp.changedNanoseconds)
        })
    }
}
