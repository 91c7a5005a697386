import Foundation
import XCTest
@testable import RizqPrefs

/// Two processes change one key: the later change wins, whichever process writes first.
final class SameKeyConflictTests: XCTestCase {
    /// A sets `k`, B sets `k` after it, A writes, then B writes: B's change is the later one and
    /// must win. Judged against A's file's modification time (later than B's change), B's
    /// change used to be dropped while B's `flush()` succeeded. Each child stops itself right
    /// after its `set`, so that no write of its own is due before the test lets it go on.
    func testTheLaterChangeWinsWhenTheEarlierOneIsWrittenAfterIt() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.conflict"
        let second = try startTwoChangesAndWriteTheEarlier(root, suite)
        XCTAssertEqual(try root.fileObject(suite)["k"] as? String, "first")

        kill(second.process.processIdentifier, SIGCONT)
        second.send("flush")
        XCTAssertEqual(second.waitForLine { $0 == "flushed" || $0.hasPrefix("error") }, "flushed", second.stderr)
        XCTAssertEqual(try root.fileObject(suite)["k"] as? String, "second", "the later change lost to the earlier one")
        second.send("get k")
        XCTAssertNotNil(second.waitForLine { $0 == "second" }, "B reads its own, later value: \(second.printed)")
    }

    /// The record that decides stays with the file: a third process's write in between (of
    /// another key) carries it over, so B's later change still wins.
    func testTheChangeTimesSurviveAWriteOfAnotherKeyInBetween() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.conflict3"
        let second = try startTwoChangesAndWriteTheEarlier(root, suite)
        waitForTheClockToTick()
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "other", "1"]).status, 0)

        kill(second.process.processIdentifier, SIGCONT)
        second.send("flush")
        XCTAssertEqual(second.waitForLine { $0 == "flushed" || $0.hasPrefix("error") }, "flushed", second.stderr)
        let object = try root.fileObject(suite)
        XCTAssertEqual(object["k"] as? String, "second")
        XCTAssertEqual(object["other"] as? Int, 1)
    }

    /// Two interactive children of `suite`: A sets `k` to "first", then B to "second", each
    /// stopping itself right after its `set` (so that no write of its own is due before the test
    /// lets it go on); then A writes, stamped later than B's change (as in the report, A at
    /// +50 ms). Returns B, left stopped with its change pending. Both end with the test.
    private func startTwoChangesAndWriteTheEarlier(_ root: TemporaryRoot, _ suite: String) throws -> LiveChild {
        let first = try LiveChild(root, suite, ["interactive"])
        let second = try LiveChild(root, suite, ["interactive"])
        addTeardownBlock {
            for child in [first, second] {
                kill(child.process.processIdentifier, SIGCONT)
                child.closeInput()
                child.waitForExit()
            }
        }
        for child in [first, second] { XCTAssertNotNil(child.waitForLine { $0 == "ready" }, child.stderr) }
        first.send("set-stop k first")
        waitUntilStopped(first)
        waitForTheClockToTick()
        second.send("set-stop k second")
        waitUntilStopped(second)
        waitForTheClockToTick()
        kill(first.process.processIdentifier, SIGCONT)
        first.send("flush")
        XCTAssertEqual(first.waitForLine { $0 == "flushed" || $0.hasPrefix("error") }, "flushed", first.stderr)
        return second
    }

    /// The record, encoded and decoded; an unknown or cut record reads as none.
    func testChangeTimesRoundTripAndRefuseGarbage() {
        let times = ChangeTimes(floor: 5, keys: ["a": 7, "ключ": -1, "": 9])
        XCTAssertEqual(ChangeTimes(encoded: times.encoded), times)
        XCTAssertNil(ChangeTimes(encoded: []))
        XCTAssertNil(ChangeTimes(encoded: [2] + times.encoded.dropFirst()))
        XCTAssertNil(ChangeTimes(encoded: Array(times.encoded.dropLast())))
        XCTAssertEqual(times.time(of: "a"), 7)
        XCTAssertEqual(times.time(of: "absent"), 5)
    }

    /// Thousands of keys in one write: the record keeps what fits, and everything it drops is
    /// covered by the floor.
    func testARecordOverItsBudgetKeepsTheNewestAndRaisesTheFloor() {
        var changes = PendingChanges()
        for index in 0..<5_000 { changes.changes["key-\(index)"] = PendingChange(value: .int(index), time: Int64(1_000 + index), base: nil) }
        let times = ChangeTimes(floor: 0, keys: [:]).adding(changes, now: 10_000)
        XCTAssertLessThanOrEqual(times.encoded.count, ChangeTimes.byteBudget)
        XCTAssertEqual(times.time(of: "key-4999"), 5_999)
        for index in 0..<5_000 { XCTAssertGreaterThanOrEqual(times.time(of: "key-\(index)"), Int64(1_000 + index)) }
    }
}

/// Waits until `child` has stopped itself (SIGSTOP): its state in /proc is "T".
func waitUntilStopped(_ child: LiveChild) {
    let path = "/proc/\(child.process.processIdentifier)/stat"
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
           let close = text.lastIndex(of: ")"),
           text[text.index(close, offsetBy: 2)] == "T" {
            return
        }
        sched_yield()
    }
    XCTFail("the child never stopped")
}

/// Waits until the coarse clock that stamps changes and files has moved on, so that what
/// happens next is stamped strictly later than what happened before.
func waitForTheClockToTick() {
    let start = PendingChange.now()
    while PendingChange.now() <= start { sched_yield() }
}
