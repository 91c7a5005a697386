import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// FileReplacement and AtomicFile, the one atomic replace: a reader, or a kill -9 between any
/// two system calls, sees the old file or the new one whole; a full disk, a short write, an
/// interrupted call or a failed flush leave the old file and no temporary; a version that moved
/// on is never overwritten; a link at the target is replaced, never followed.
final class FileReplacementTests: XCTestCase {
    func testTheNewBytesReplaceTheFileWithTheModeAskedWhateverTheUmask() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "old")
        let stamp = try withUmask(0o077) { try AtomicFile.write(Array("new".utf8), to: path, mode: 0o640) }
        XCTAssertEqual(folder.text("suite.json"), "new")
        XCTAssertEqual(fileInfo(path).st_mode & 0o7777, 0o640, "exactly as asked, though the umask takes group bits")
        XCTAssertEqual(FileStamp.of(path), stamp)
        XCTAssertEqual(folder.temporaries(), [])
        try withUmask(0) { try AtomicFile.write(Array("newer".utf8), to: path) }
        XCTAssertEqual(fileInfo(path).st_mode & 0o7777, 0o600, "0600 by default, though the umask gives all")
    }

    #if DEBUG
    /// The order that makes it crash-safe and durable: the temporary file's bytes are flushed
    /// before it is renamed into place, and the folder is flushed after.
    func testTheBytesAreFlushedBeforeTheRenameAndTheFolderAfter() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "old")
        let stamp = try XCTUnwrap(FileStamp.of(path))
        try SystemCallFaults.inject { faults in
            var replacement = try FileReplacement.prepare(Array("new".utf8), for: path, flush: .atInstall)
            guard case .replaced = try replacement.install(over: .version(stamp)) else { return XCTFail("not replaced") }
            let calls = faults.calls.map(\.call)
            // The temporary file is locked while it is this writer's (issue 50: a cleaner leaves it).
            XCTAssertEqual(calls, [.open, .flock, .fchmod, .write, .fsync, .renameat2, .unlink, .open, .fsync], "\(faults.calls)")
            XCTAssertEqual(faults.calls[5].detail, "\(replacement.temporary) -> \(path)")
            XCTAssertEqual(faults.calls[7].detail, folder.path, "the folder flushed")
        }
    }
    #endif

    /// `.nothing` expected and a file is there: nothing is written, and the temporary file goes
    /// when the replacement ends.
    func testACreateOverAnExistingFileWritesNothing() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "theirs")
        do {
            var replacement = try FileReplacement.prepare(Array("ours".utf8), for: path)
            XCTAssertEqual(folder.temporaries().count, 1)
            guard case .changed = try replacement.install(over: .nothing) else { return XCTFail("replaced a file that was there") }
        }
        XCTAssertEqual(folder.text("suite.json"), "theirs")
        XCTAssertEqual(folder.temporaries(), [])
        let error = fileError { try AtomicFile.create(Array("ours".utf8), at: path) }
        XCTAssertEqual(error?.problem, .system(.fileExists))
        XCTAssertEqual(folder.text("suite.json"), "theirs")
    }

    /// Another program replaced the file after it was read: its version stays (the swap that
    /// found it puts it back), and the replace says `.changed`.
    func testAVersionThatMovedOnIsNeverOverwritten() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "read")
        let read = try XCTUnwrap(FileStamp.of(path))
        var replacement = try FileReplacement.prepare(Array("ours".utf8), for: path)
        try AtomicFile.write(Array("theirs".utf8), to: path)
        guard case .changed = try replacement.install(over: .version(read)) else { return XCTFail("overwrote another program's version") }
        XCTAssertEqual(folder.text("suite.json"), "theirs")
        _ = consume replacement
        XCTAssertEqual(folder.temporaries(), [])
    }

    #if DEBUG
    /// Where the file system cannot swap or refuse to replace (renameat2 says EINVAL: ramfs,
    /// NFSv3, older kernels), the replace checks the version just before a plain rename: the
    /// same outcomes.
    func testWithoutRenameat2TheVersionIsCheckedBeforeAPlainRename() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "read")
        let read = try XCTUnwrap(FileStamp.of(path))
        try SystemCallFaults.inject { faults in
            faults.fail(.renameat2, with: Errno(rawValue: EINVAL), times: .max)
            var replacement = try FileReplacement.prepare(Array("ours".utf8), for: path)
            guard case .replaced = try replacement.install(over: .version(read)) else { return XCTFail("not replaced") }
            XCTAssertEqual(folder.text("suite.json"), "ours")
            XCTAssertTrue(faults.calls.contains { $0.call == .rename }, "\(faults.calls)")

            let now = try XCTUnwrap(FileStamp.of(path))
            var stale = try FileReplacement.prepare(Array("stale".utf8), for: path)
            try AtomicFile.write(Array("theirs".utf8), to: path)
            guard case .changed = try stale.install(over: .version(now)) else { return XCTFail("overwrote another program's version") }
            XCTAssertEqual(folder.text("suite.json"), "theirs")

            var create = try FileReplacement.prepare(Array("new".utf8), for: folder.file("other.json"))
            guard case .replaced = try create.install(over: .nothing) else { return XCTFail("not created") }
            XCTAssertEqual(folder.text("other.json"), "new")
            try AtomicFile.move(folder.file("other.json"), to: folder.file("moved.json"), replacing: false)
            XCTAssertEqual(fileError { try AtomicFile.move(folder.file("moved.json"), to: path, replacing: false) }?.problem, .system(.fileExists))
        }
    }
    #endif

    /// A link planted at the target is replaced by the file itself; what it pointed to is untouched.
    func testALinkAtTheTargetIsReplacedNotFollowed() throws {
        let folder = ScratchFolder()
        let elsewhere = folder.write("elsewhere", "not yours to change")
        let path = folder.file("suite.json")
        XCTAssertEqual(symlink(elsewhere, path), 0)
        try AtomicFile.write(Array("new".utf8), to: path)
        XCTAssertEqual(fileInfo(path).st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(folder.text("suite.json"), "new")
        XCTAssertEqual(folder.text("elsewhere"), "not yours to change")
    }

    /// A full disk (a small tmpfs): the write says so and what to do; the old file is intact,
    /// and no temporary file is left to fill the disk further.
    func testAFullDiskLeavesTheOldFileAndNoTemporary() throws {
        let scratch = ScratchFolder()
        let disk = try scratch.smallDisk(size: "64k")
        let path = disk + "/suite.json"
        try AtomicFile.write(Array("old".utf8), to: path)
        fillDisk(disk + "/filler")
        let error = fileError { try AtomicFile.write([UInt8](repeating: 0x61, count: 16 << 10), to: path, subject: "suite file") }
        XCTAssertEqual(error?.problem, .system(.noSpace))
        XCTAssertEqual(error?.description, "cannot write the suite file \(path): the disk is full (No space left on device); free space on it")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        XCTAssertEqual(scratch.temporaries(in: "disk"), [])
        XCTAssertEqual(unlink(disk + "/filler"), 0)
        try AtomicFile.write([UInt8](repeating: 0x61, count: 16 << 10), to: path)
        XCTAssertEqual(FileStamp.of(path)?.size, 16 << 10, "written once there is room")
    }

    #if DEBUG
    /// Writes the kernel cuts short and calls a signal interrupts are continued and made again:
    /// every byte arrives.
    func testShortWritesAndInterruptedCallsStillWriteEveryByte() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "old")
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try SystemCallFaults.inject { faults in
            faults.shorten(.write, to: 5)
            faults.fail(.write, with: .interrupted, times: 2)
            faults.fail(.fsync, with: .interrupted, times: 2)
            faults.fail(.rename, with: .interrupted)
            try AtomicFile.write(bytes, to: path)
            XCTAssertEqual(faults.calls.filter { $0.fault == .shorten(5) }.count, 1000, "5 bytes a write")
            XCTAssertEqual(faults.calls.filter { $0.fault == .fail(.interrupted) }.map(\.call), [.write, .write, .fsync, .fsync, .rename])
        }
        XCTAssertEqual(Array(try XCTUnwrap(FileManager.default.contents(atPath: path))), bytes)
        XCTAssertEqual(folder.temporaries(), [])
    }

    /// A failed write, flush, chmod or rename: the error names the file and the cause, the old
    /// file is intact, and the temporary file is gone.
    func testAFailedCallLeavesTheOldFileAndNoTemporary() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "old")
        let failures: [(SystemCalls.Call, Errno, String)] = [
            (.write, .ioError, "Input/output error"), (.fsync, .ioError, "Input/output error"),
            (.fchmod, .notPermitted, "the folder or file is immutable or not yours (Operation not permitted); lsattr and chattr -i it, or chown it to yourself"),
            (.rename, .readOnlyFileSystem, "the file system is read-only (Read-only file system); remount it read-write, or set RIZQ_PREFS_HOME to a writable folder"),
            (.open, .quotaExceeded, "the disk is full (Disk quota exceeded); free space on it"),
        ]
        for (call, code, words) in failures {
            SystemCallFaults.inject { faults in
                faults.fail(call, with: code)
                let error = fileError { try AtomicFile.write(Array("new".utf8), to: path, subject: "suite file") }
                XCTAssertEqual(error?.description, "cannot write the suite file \(path): \(words)", "\(call)")
            }
            XCTAssertEqual(folder.text("suite.json"), "old", "\(call)")
            XCTAssertEqual(folder.temporaries(), [], "\(call)")
        }
    }
    #endif

    /// A root process replacing a user's file keeps it the user's.
    func testARootProcessKeepsTheFileItsOwners() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a file to another user")
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "old")
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        var replacement = try FileReplacement.prepare(Array("new".utf8), for: path, owner: FileOwner.of(path))
        _ = try replacement.install(over: .anything)
        XCTAssertEqual(FileOwner.of(path), FileOwner(user: 65534, group: 65534))
        XCTAssertEqual(fileInfo(path).st_mode & 0o777, 0o600)
    }

    func testRemoveAndMoveSayWhatWasThere() throws {
        let folder = ScratchFolder()
        let path = folder.write("a", "1")
        XCTAssertTrue(try AtomicFile.remove(path))
        XCTAssertFalse(try AtomicFile.remove(path), "nothing there")
        folder.write("b", "2")
        folder.write("c", "3")
        XCTAssertEqual(fileError { try AtomicFile.move(folder.file("b"), to: folder.file("c"), replacing: false) }?.path, folder.file("c"))
        try AtomicFile.move(folder.file("b"), to: folder.file("c"), replacing: true)
        XCTAssertEqual(folder.text("c"), "2")
        XCTAssertNil(folder.text("b"))
        XCTAssertEqual(fileError { try AtomicFile.move(folder.file("b"), to: folder.file("d"), replacing: true) }?.problem, .system(.noSuchFile))
    }

    #if DEBUG
    /// A writer killed with -9 before each of its system calls in turn (and after the last):
    /// the file is always the old bytes or the new ones, whole, mode 0600; what is left beside
    /// it is at most the dead writer's own temporary file, under the name its callers sweep.
    func testAWriterKilledBeforeAnyCallLeavesTheOldFileOrTheNewWhole() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "old")
        let new = String(repeating: "new ", count: 2000)
        let calls = try FilesChild.runKilled(beforeCall: nil, ["replace", path, new]).announced
        XCTAssertEqual(folder.text("suite.json"), new)
        XCTAssertGreaterThanOrEqual(calls.count, 6, "\(calls)")
        for kill in 0...calls.count {
            try AtomicFile.write(Array("old".utf8), to: path)
            for name in folder.temporaries() { unlink(folder.file(name)) }
            let run = try FilesChild.runKilled(beforeCall: kill, ["replace", path, new])
            XCTAssertEqual(run.killed, kill < calls.count)
            let text = folder.text("suite.json")
            XCTAssertTrue(text == "old" || text == new, "killed before call \(kill) of \(calls): \(String(describing: text?.prefix(20)))")
            XCTAssertEqual(fileInfo(path).st_mode & 0o7777, 0o600)
            XCTAssertLessThanOrEqual(folder.temporaries().count, 1, "killed before call \(kill): \(folder.temporaries())")
            XCTAssertTrue(folder.temporaries().allSatisfy { $0.hasPrefix(".suite.json.tmp-") })
        }
    }

    /// The same for a file that did not exist: nothing, or the new file whole.
    func testACreatorKilledBeforeAnyCallLeavesNothingOrTheNewFileWhole() throws {
        let folder = ScratchFolder()
        let path = folder.file("suite.json")
        let calls = try FilesChild.runKilled(beforeCall: nil, ["replace", path, "created"]).announced
        for kill in 0..<calls.count {
            unlink(path)
            try FilesChild.runKilled(beforeCall: kill, ["replace", path, "created"])
            let text = folder.text("suite.json")
            XCTAssertTrue(text == nil || text == "created", "killed before call \(kill) of \(calls): \(String(describing: text))")
        }
    }
    #endif
}
