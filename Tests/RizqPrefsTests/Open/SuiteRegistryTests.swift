import Foundation
import XCTest
@testable import RizqPrefs

/// Opening suites: the process-wide table of open suites never makes one suite's open wait for
/// another's file.
final class SuiteRegistryTests: XCTestCase {
    /// A damaged file can be moved aside only under the suite's file lock; while another process
    /// holds that lock, opening the damaged suite waits. Other suites' opens must not wait with it.
    func testASuiteWaitingOnItsFileDoesNotStallOpeningOtherSuites() throws {
        let root = TemporaryRoot()
        let rootPath = root.path
        let slow = "group.com.rizq.damaged"
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        let damaged = Data("{\"broken\": ".utf8)
        _ = FileManager.default.createFile(atPath: root.filePath(slow), contents: damaged)

        let holder = Child.start(root, slow, ["hold-lock"])
        let holderInput = Pipe()
        holder.standardInput = holderInput
        try holder.run()
        defer {
            try? holderInput.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        XCTAssertTrue(Child.read(holder, until: "locked").contains("locked\n"))

        let slowOpened = DispatchSemaphore(value: 0)
        Thread {
            _ = try? SuiteStore(suite: slow, appID: "tests", root: rootPath)
            slowOpened.signal()
        }.start()
        // The kernel lists this process's flock request as blocked on the lock file: the open is
        // inside, waiting.
        let lockFile = root.path + "/groups/." + slow + ".lock"
        XCTAssertTrue(eventually { Self.isWaitingForLock(lockFile) }, "the open never waited for the lock")

        let otherOpened = DispatchSemaphore(value: 0)
        Thread {
            if let other = try? SuiteStore(suite: "group.com.rizq.other", appID: "tests", root: rootPath) {
                other.set(1, forKey: "opened")
                otherOpened.signal()
            }
        }.start()
        // A generous bound against a hang, not a measure: the open needs milliseconds.
        XCTAssertEqual(otherOpened.wait(timeout: .now() + 30), .success, "opening another suite waited for the damaged one")
        XCTAssertTrue(Self.isWaitingForLock(lockFile), "the damaged suite's open should still be waiting")

        try holderInput.fileHandleForWriting.close()
        holder.waitUntilExit()
        XCTAssertEqual(slowOpened.wait(timeout: .now() + 30), .success)
        let moved = try FileManager.default.contentsOfDirectory(atPath: root.path + "/groups").filter { $0.hasPrefix(slow + ".corrupt-") }
        XCTAssertEqual(moved.count, 1)
        XCTAssertEqual(moved.first.flatMap { FileManager.default.contents(atPath: root.path + "/groups/" + $0) }, damaged)
    }

    /// An open that failed is not remembered: once the cause is gone, the suite opens.
    func testAFailedOpenIsTriedAfreshNextTime() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.filePath(), withIntermediateDirectories: true)
        XCTAssertThrowsError(try root.store())
        try FileManager.default.removeItem(atPath: root.filePath())
        let store = try root.store()
        store.set(1, forKey: "k")
        try store.flush()
        XCTAssertEqual(try root.fileObject()["k"] as? Int, 1)
    }

    /// Whether `/proc/locks` lists a blocked `flock` of this process on `path`.
    private static func isWaitingForLock(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        // "2: -> FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF"
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 6 && fields[1] == "->" && fields[2] == "FLOCK" && fields[5] == "\(getpid())"
                && fields[6].hasSuffix(":\(info.st_ino)")
        }
    }
}
