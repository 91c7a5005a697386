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

    /// A's write carries 40 other keys of 133-byte names, changed after B's change: the record
    /// of change times once had a 2,048-byte budget, `k` was dropped from it into a floor later
    /// than B's change, and A won (5 of 5 in the report).
    func testTheLaterChangeWinsWhenTheEarlierWriteCarriesFortyLongKeys() throws {
        try assertTheLaterChangeWins(extra: "set-many long 40 133")
    }

    /// The same with 100 keys of mixed 12–40-byte names (3 of 3 in the report).
    func testTheLaterChangeWinsWhenTheEarlierWriteCarriesAHundredMixedKeys() throws {
        try assertTheLaterChangeWins(extra: "set-mixed mixed 100")
    }

    /// Where the file system keeps no user extended attributes (the calls fail with ENOTSUP,
    /// as on ramfs, tmpfs before Linux 6.6, NFSv3, vfat, most FUSE), the rule still holds: A
    /// won 5 of 5 in the report.
    func testTheLaterChangeWinsWithoutExtendedAttributes() throws {
        try assertTheLaterChangeWins(wrapper: Self.withoutExtendedAttributes)
    }

    /// Without extended attributes and with a large batch.
    func testTheLaterChangeWinsWithoutExtendedAttributesAndFortyLongKeys() throws {
        try assertTheLaterChangeWins(extra: "set-many long 40 133", wrapper: Self.withoutExtendedAttributes)
    }

    /// Runs a child with every extended-attribute call failing with ENOTSUP.
    static var withoutExtendedAttributes: [String] {
        [
            repositoryRoot().appendingPathComponent("scripts/seccomp-deny").path, "--errno", "ENOTSUP",
            "setxattr,lsetxattr,fsetxattr,getxattr,lgetxattr,fgetxattr,listxattr,llistxattr,flistxattr,removexattr,lremovexattr,fremovexattr",
        ]
    }

    /// A sets `k`, B sets `k` later; A (after `extra`, a child command) writes, then B: B wins,
    /// on disk and in both processes, and the other keys A wrote are there.
    private func assertTheLaterChangeWins(extra: String? = nil, wrapper: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.conflict-many"
        let second = try startTwoChangesAndWriteTheEarlier(root, suite, extra: extra, wrapper: wrapper)
        XCTAssertEqual(try root.fileObject(suite)["k"] as? String, "first", file: file, line: line)
        kill(second.process.processIdentifier, SIGCONT)
        second.send("flush")
        XCTAssertEqual(second.waitForLine { $0 == "flushed" || $0.hasPrefix("error") }, "flushed", second.stderr, file: file, line: line)
        let object = try root.fileObject(suite)
        XCTAssertEqual(object["k"] as? String, "second", "the later change lost to the earlier one", file: file, line: line)
        if extra != nil { XCTAssertGreaterThanOrEqual(object.count, 41, "A's other keys are kept", file: file, line: line) }
        second.send("get k")
        XCTAssertNotNil(second.waitForLine { $0 == "second" }, "B reads its own, later value: \(second.printed)", file: file, line: line)
    }

    /// Two interactive children of `suite`: A sets `k` to "first", then B to "second", each
    /// stopping itself right after its `set` (so that no write of its own is due before the test
    /// lets it go on); then A runs `extra` (a child command, if any) and writes, stamped later
    /// than B's change (as in the report, A at +50 ms). Returns B, left stopped with its change
    /// pending. Both end with the test; `wrapper` runs each child.
    private func startTwoChangesAndWriteTheEarlier(_ root: TemporaryRoot, _ suite: String, extra: String? = nil, wrapper: [String] = []) throws -> LiveChild {
        let first = try LiveChild(root, suite, ["interactive"], wrapper: wrapper)
        let second = try LiveChild(root, suite, ["interactive"], wrapper: wrapper)
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
        if let extra { first.send(extra) }
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
    let start = WallClock.now()
    while WallClock.now() <= start { sched_yield() }
}
