import Foundation
import Synchronization
import XCTest
@testable import RizqPrefs

/// The suite's lock file (`.<suite>.lock`) under attack: removed while writers run, replaced by
/// a symbolic link. Writers must never hold "the lock" on two different files at once, and
/// nothing is ever created through a link.
final class SuiteFileLockTests: XCTestCase {
    /// A cleanup of `*.lock` files while writers run. Each writer's flush
    /// took the lock on whatever file was at the lock path when it opened it, so after a removal
    /// two writers held locks on different files at once and one overwrote the other's
    /// acknowledged key (7–8 of 2,400 lost with one removal, ~1,400 with many). Each acknowledged key here removes the lock file again.
    func testRemovingTheLockFileWhileEightWritersFlushLosesNoAcknowledgedKey() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.lock"
        let lockPath = root.path + "/groups/." + suite + ".lock"
        let writers = 8
        let keysEach = 100
        let acknowledged = Mutex<[String: Int]>([:])
        let removals = Atomic<Int>(0)
        // Every acknowledged key removes the lock file: it is gone, or new, many times while
        // the other writers are inside their flush.
        let children = try (0..<writers).map { writer in
            try LiveChild(root, suite, ["write-flushed-on-go", "w\(writer)", "\(keysEach)"]) { line in
                guard line.hasPrefix("ok "), let index = Int(line.dropFirst(3)) else { return }
                acknowledged.withLock { $0["w\(writer)-\(index)"] = index }
                if unlink(lockPath) == 0 { removals.add(1, ordering: .relaxed) }
            }
        }
        for child in children { XCTAssertNotNil(child.waitForLine { $0 == "ready" }, child.stderr) }
        for child in children { child.send("go") }
        for child in children { XCTAssertEqual(child.waitForExit(), 0, child.stderr) }

        let keys = acknowledged.withLock { $0 }
        XCTAssertEqual(keys.count, writers * keysEach, "every flush returned")
        XCTAssertGreaterThan(removals.load(ordering: .relaxed), writers * keysEach / 4, "the lock file was removed while the writers ran")
        let object = try root.fileObject(suite)
        let lost = keys.filter { object[$0.key] as? Int != $0.value }.map(\.key).sorted()
        XCTAssertEqual(lost, [], "\(lost.count) acknowledged keys lost")
        XCTAssertEqual(object.count, writers * keysEach)
    }
}
