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
