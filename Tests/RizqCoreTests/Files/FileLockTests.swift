import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// FileLock between real processes: a bounded wait that names the holder, shared holders, a
/// holder killed with -9, the lock file removed under its holder, and the things that can stand
/// where a lock file should be.
final class FileLockTests: XCTestCase {
    func testTakesTheLockOnAPrivateFileItCreates() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        var lock = try withUmask(0) { try FileLock.acquire(path, timeout: .seconds(5)) }
        let info = fileInfo(path)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "0600 whatever the umask")
        XCTAssertTrue(lock.isAtLockPath)
        XCTAssertFalse(lock.isShared)
        lock.release()
        lock.release()  // a second release is nothing
        XCTAssertTrue(try lockIsFree(path), "let go")
    }

    /// Another process holds it: a wait gives up after its bound and names the holder (its pid
    /// and command line) and what to do; a try does not wait at all.
    func testAWaitForAnotherProcessEndsNamingTheHolder() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        let holder = try FilesChild.Running(["lock", path], waitingFor: "locked")
        defer { holder.stop() }
        let error = fileError { try FileLock.acquire(path, timeout: .milliseconds(200), subject: "suite file /x/suite.json") }
        guard case .lockTimedOut(let waited, let holders)? = error?.problem else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(waited, "0.2 s")
        XCTAssertTrue(holders.hasPrefix("pid \(holder.pid) (\(FilesChild.executable) lock \(path))"), holders)
        XCTAssertTrue(holders.hasSuffix("wait for it, or end it (kill \(holder.pid))"), holders)
        XCTAssertEqual(error?.description.hasPrefix("cannot lock the suite file /x/suite.json \(path): it was still locked after waiting 0.2 s: held by pid \(holder.pid)"), true,
                       error?.description ?? "")
        XCTAssertFalse(try lockIsFree(path))
    }

    /// A holder stopped with SIGSTOP is named as stopped, with the command that resumes it.
    func testAStoppedHolderIsNamedAsStopped() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        let holder = try FilesChild.Running(["lock", path], waitingFor: "locked")
        defer { holder.stop() }
        XCTAssertEqual(kill(holder.pid, SIGSTOP), 0)
        defer { kill(holder.pid, SIGCONT) }
        XCTAssertTrue(eventually { LockHolders.holders(device: UInt64(fileInfo(path).st_dev), inode: UInt64(fileInfo(path).st_ino)).first?.state == "T" })
        let error = fileError { try FileLock.acquire(path, timeout: .zero) }
        XCTAssertEqual(error?.description.contains("which is stopped (SIGSTOP or Ctrl-Z): resume it (kill -CONT \(holder.pid)) or end it (kill \(holder.pid))"), true,
                       error?.description ?? "")
    }

    func testSharedHoldersShareAndKeepAWriterOut() throws {
        let folder = ScratchFolder()
        let path = folder.file(".cache.lock")
        let reader = try FilesChild.Running(["lock", path, "shared"], waitingFor: "locked")
        defer { reader.stop() }
        let shared = try FileLock.acquire(path, shared: true, timeout: .zero)
        XCTAssertTrue(shared.isShared)
        XCTAssertFalse(try lockIsFree(path), "a writer waits for the readers")
    }

    /// A holder killed with SIGKILL lets go (the kernel closes its descriptor): a waiter that was
    /// waiting for it gets the lock, and so does the next one.
    func testAHolderKilledWithSIGKILLLetsGo() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        let holder = try FilesChild.Running(["lock", path], waitingFor: "locked")
        let waiter = DispatchQueue(label: "waiter")
        let acquired = DispatchSemaphore(value: 0)
        waiter.async {
            if var lock = try? FileLock.acquire(path, timeout: .seconds(120)) {
                lock.release()
                acquired.signal()
            }
        }
        holder.crash()
        XCTAssertEqual(acquired.wait(timeout: .now() + 120), .success, "the waiter got the lock")
        XCTAssertTrue(try lockIsFree(path))
    }

    /// The lock file removed under its holder (a `*.lock` clean-up): the lock now excludes nobody,
    /// the holder sees it (`isAtLockPath`), and takes the lock again on the file at the path —
    /// waiting for whoever locked that one meanwhile.
    func testALockFileRemovedUnderItsHolderIsTakenAgain() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        var lock = try FileLock.acquire(path, timeout: .zero)
        XCTAssertEqual(unlink(path), 0)
        XCTAssertFalse(lock.isAtLockPath)
        let other = try FilesChild.Running(["lock", path], waitingFor: "locked")
        do {
            try lock.retake(timeout: .milliseconds(100))
            XCTFail("the other process holds the new lock file")
        } catch {
            guard case .lockTimedOut = error.problem else { return XCTFail("\(error)") }
        }
        other.stop()
        try lock.retake(timeout: .seconds(60))
        XCTAssertTrue(lock.isAtLockPath)
        XCTAssertFalse(try lockIsFree(path))
    }

    func testALinkAFIFOOrAFolderAtTheLockPathIsRefused() throws {
        let folder = ScratchFolder()
        let target = folder.write("elsewhere", "")
        let link = folder.file(".link.lock")
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertEqual(fileError { try FileLock.acquire(link, timeout: .zero) }?.problem, .symbolicLink(target: "'\(target)'"))
        let fifo = folder.file(".fifo.lock")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let refusal = fileError { try FileLock.acquire(fifo, timeout: .zero) }
        XCTAssertEqual(refusal?.problem, .wrongKind(found: "a FIFO (named pipe)", expected: "a regular file"))
        XCTAssertEqual(refusal?.description.hasPrefix("cannot lock the lock file \(fifo): it is a FIFO (named pipe), not a regular file"), true)
        let inner = folder.folder(".folder.lock")
        // Opened as it is (issue 50: only a lock file this process made is ever given away), and
        // judged: a folder, not a regular file.
        XCTAssertEqual(fileError { try FileLock.acquire(inner, timeout: .zero) }?.problem, .wrongKind(found: "a folder", expected: "a regular file"))
        XCTAssertEqual(FileStamp.of(target)?.size, 0, "the link's target untouched")
    }

    /// A root process locking a user's file makes the lock file the user's, so that the user's
    /// own processes can open it later.
    func testARootProcessGivesANewLockFileTheOwnerOfWhatItLocks() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a file to another user")
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        _ = try FileLock.acquire(path, timeout: .zero, owner: FileOwner(user: 65534, group: 65534))
        XCTAssertEqual(FileOwner.of(path), FileOwner(user: 65534, group: 65534))
    }

    #if DEBUG
    func testAnInterruptedLockCallIsMadeAgain() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        try SystemCallFaults.inject { faults in
            faults.fail(.flock, with: .interrupted, times: 2)
            faults.fail(.open, with: .interrupted)
            let lock = try FileLock.acquire(path, timeout: .zero)
            XCTAssertTrue(lock.isAtLockPath)
            XCTAssertEqual(faults.calls.filter { $0.call == .flock }.count, 3, "\(faults.calls)")
            XCTAssertEqual(faults.calls.filter { $0.call == .open }.count, 2, "\(faults.calls)")
        }
    }

    func testALockThatCannotBeTakenSaysWhy() throws {
        let folder = ScratchFolder()
        let path = folder.file(".suite.lock")
        SystemCallFaults.inject { faults in
            faults.fail(.flock, with: Errno(rawValue: ENOLCK))
            XCTAssertEqual(fileError { try FileLock.acquire(path, timeout: .zero) }?.description,
                           "cannot lock the lock file \(path): No locks available")
        }
    }
    #endif
}
