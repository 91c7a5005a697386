import Foundation
import RizqCore
import Synchronization
import XCTest

/// The one conflict rule of device sync and fleet suites: per key the newest stamp wins, and a
/// change made after seeing another is newer, whatever the clocks say.
final class HybridLogicalClockTests: XCTestCase {
    /// A wall clock a test sets by hand.
    private final class ManualClock: Sendable {
        let milliseconds = Mutex<Int64>(0)
        func read() -> Int64 { milliseconds.withLock { $0 } }
        func set(_ value: Int64) { milliseconds.withLock { $0 = value } }
    }

    func testStampsOrderByMillisecondsThenCounterThenOrigin() {
        let a = ChangeStamp(milliseconds: 10, counter: 5, origin: "z")
        let b = ChangeStamp(milliseconds: 11, counter: 0, origin: "a")
        let c = ChangeStamp(milliseconds: 11, counter: 1, origin: "a")
        let d = ChangeStamp(milliseconds: 11, counter: 1, origin: "b")
        XCTAssertEqual([d, c, b, a].sorted(), [a, b, c, d])
        XCTAssertNotEqual(c, d, "two origins never make equal stamps")
    }

    func testEveryStampOfOneClockIsLaterThanTheLastEvenWhenTheWallClockStandsStillOrGoesBack() {
        let wall = ManualClock()
        wall.set(1_000)
        let clock = HybridLogicalClock(origin: "a", wallClock: wall.read)
        var previous = clock.now()
        for step in 0..<100 {
            if step == 50 { wall.set(500) }  // the wall clock stepped back
            let next = clock.now()
            XCTAssertGreaterThan(next, previous)
            previous = next
        }
        XCTAssertEqual(previous.milliseconds, 1_000, "no stamp runs ahead of the latest time known")
        wall.set(2_000)
        XCTAssertEqual(clock.now(), ChangeStamp(milliseconds: 2_000, counter: 0, origin: "a"))
    }

    func testAnEditMadeAfterSeeingAValueFromAFastClockWins() {
        // Host b's clock is ten minutes fast; host a edits after seeing b's value.
        let slowWall = ManualClock()
        slowWall.set(1_000_000)
        let fastWall = ManualClock()
        fastWall.set(1_000_000 + 600_000)
        let a = HybridLogicalClock(origin: "a", wallClock: slowWall.read)
        let b = HybridLogicalClock(origin: "b", wallClock: fastWall.read)
        let theirs = b.now()
        a.observe(theirs)
        let mine = a.now()
        XCTAssertGreaterThan(mine, theirs)
        // …and b, seeing a's edit, stamps its next edit after it again.
        b.observe(mine)
        XCTAssertGreaterThan(b.now(), mine)
    }

    func testAStampFurtherAheadThanTheMaximumOffsetIsRefusedAndDragsNothing() throws {
        let wall = ManualClock()
        let now: Int64 = 1_764_150_000_000
        wall.set(now)
        let clock = HybridLogicalClock(origin: "a", wallClock: wall.read)
        XCTAssertEqual(clock.maximumOffset, HybridLogicalClock.defaultMaximumOffset)
        XCTAssertEqual(clock.maximumOffset, .seconds(86_400), "documented: one day")
        let year2100 = ChangeStamp(milliseconds: 4_102_444_800_000, counter: 0, origin: "fast")
        let hostile = ChangeStamp(milliseconds: Int64.max, counter: UInt32.max, origin: "evil")
        for stamp in [year2100, hostile] {
            let refusal = try XCTUnwrap(clock.observe(stamp), "\(stamp) is refused")
            XCTAssertEqual(refusal.stamp, stamp)
            XCTAssertGreaterThan(refusal.aheadMilliseconds, 86_400_000)
            XCTAssertTrue(refusal.description.contains("maximum offset of 1 day"), refusal.description)
            XCTAssertEqual(clock.refusal(of: stamp), refusal, "asked without observing: the same answer")
        }
        let next = clock.now()
        XCTAssertEqual(next.milliseconds, now, "the clock was not dragged to 2100, nor to the end of time")
        // An hour ahead (a fleet host whose clock is off) is taken, and later edits win over it.
        let hourAhead = ChangeStamp(milliseconds: now + 3_600_000, counter: 0, origin: "b")
        XCTAssertNil(clock.observe(hourAhead))
        XCTAssertGreaterThan(clock.now(), hourAhead)
        // Just within the offset is taken; just past it is not.
        XCTAssertNil(clock.refusal(of: ChangeStamp(milliseconds: now + 86_400_000, counter: 0, origin: "b")))
        XCTAssertNotNil(clock.refusal(of: ChangeStamp(milliseconds: now + 86_400_001, counter: 0, origin: "b")))
        // A clock of another offset, and stamps behind the wall clock, whatever their age.
        let strict = HybridLogicalClock(origin: "c", wallClock: wall.read, maximumOffset: .milliseconds(500))
        XCTAssertNotNil(strict.observe(hourAhead))
        XCTAssertNil(strict.observe(ChangeStamp(milliseconds: Int64.min, counter: 0, origin: "old")))
        XCTAssertEqual(strict.offset(of: ChangeStamp(milliseconds: Int64.min, counter: 0, origin: "old")), Int64.min, "saturated, not a trap")
    }

    func testAtTheEndOfTheRangeStampsStopGrowingInsteadOfTrapping() {
        // A wall clock at the very end of Int64 (or a stamp there taken within the offset).
        let wall = ManualClock()
        wall.set(Int64.max - 10)
        let clock = HybridLogicalClock(origin: "a", wallClock: wall.read)
        let last = ChangeStamp(milliseconds: Int64.max, counter: UInt32.max, origin: "b")
        XCTAssertNil(clock.observe(last), "10 ms ahead: within the offset")
        let first = clock.now()
        let second = clock.now()
        XCTAssertEqual(first.milliseconds, Int64.max)
        XCTAssertEqual(first.counter, UInt32.max)
        XCTAssertEqual(second, first, "no later stamp exists: the same one, not an overflow")
        XCTAssertEqual(ClockOffsetWords.duration(Int64.min).hasSuffix("years"), true)
        // Days and years to the nearest: 3 days less a moment is "3 days", not "2 days".
        XCTAssertEqual(ClockOffsetWords.duration(3 * 86_400_000 - 5_000), "3 days")
        XCTAssertEqual(ClockOffsetWords.duration(2 * 86_400_000 + 11 * 3_600_000), "2 days")
        XCTAssertEqual(ClockOffsetWords.duration(86_400_000 + 3 * 3_600_000 + 59_000), "1 day 3 h")
    }

    func testTheTextFormReadsBack() {
        let stamp = ChangeStamp(milliseconds: 1_764_150_000_123, counter: 7, origin: "host-a.example")
        XCTAssertEqual(stamp.description, "1764150000123.7@host-a.example")
        XCTAssertEqual(ChangeStamp(parsing: stamp.description), stamp)
        for bad in ["", "1.2", "x.1@a", "1.x@a", "1.2@", "12@a"] {
            XCTAssertNil(ChangeStamp(parsing: bad), bad)
        }
    }
}

/// The origin of this user's stamps on this machine: made once, kept, shared by every process.
final class ReplicaIdentityTests: XCTestCase {
    func testTheIdIsMadeOnceKeptPrivateAndTheSameForEveryCaller() throws {
        let state = NSTemporaryDirectory() + "rizq-replica-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state, "HOME": "/nonexistent"]
        let first = try ReplicaIdentity.current(environment: environment)
        XCTAssertEqual(first.count, 32)
        XCTAssertTrue(ReplicaIdentity.isValid(first))
        XCTAssertEqual(try ReplicaIdentity.current(environment: environment), first)
        let path = ReplicaIdentity.path(environment: environment)
        XCTAssertEqual(path, state + "/rizq-prefs/replica-id")
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
        XCTAssertEqual(mode & 0o077, 0, "nobody else reads it")
    }

    func testTheEnvironmentNamesTheIdAndABadOneIsRefused() {
        XCTAssertEqual(try ReplicaIdentity.current(environment: ["RIZQ_PREFS_REPLICA_ID": "device-b"]), "device-b")
        XCTAssertThrowsError(try ReplicaIdentity.current(environment: ["RIZQ_PREFS_REPLICA_ID": "a/b"])) { error in
            XCTAssertEqual(error as? ReplicaIdentityError, .invalid("a/b"))
        }
    }
}
