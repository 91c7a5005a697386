import Foundation
import XCTest
@testable import RizqPrefs

/// The change log (`.<suite>.changes`) that records when each key was changed, for the
/// same-key rule: every key's time is kept however many a write changes (the record it replaces
/// had a 2,048-byte budget), a torn or phantom segment is never taken for a version's record,
/// and compaction keeps what the recent versions need.
final class ChangeLogTests: XCTestCase {
    private func stamp(_ inode: UInt64, mtime: Int = 100) -> FileStamp {
        FileStamp(device: 1, inode: inode, size: 10, modifiedSeconds: mtime, modifiedNanoseconds: 0)
    }

    /// Five thousand keys of long names in one write, then a write of one key: every key's time
    /// comes back exactly.
    func testEveryKeysTimeIsKeptHoweverManyAWriteChanges() {
        var keys: [PendingKey: Int64] = [:]
        for index in 0..<5_000 { keys[PendingKey(String(repeating: "k", count: 133) + "\(index)")] = Int64(1_000 + index) }
        let first = ChangeLog.Segment(version: stamp(1), parent: nil, writtenAt: 7_000, floor: nil, keys: keys)
        let second = ChangeLog.Segment(version: stamp(2), parent: stamp(1), writtenAt: 8_000, floor: nil, keys: ["other": 7_500])
        let log = ChangeLog(decoding: ChangeLog.encode(first) + ChangeLog.encode(second))
        XCTAssertEqual(log.segments, [first, second])
        let times = log.times(of: stamp(2))
        XCTAssertEqual(times?.time(of: "other"), 7_500)
        for (key, time) in keys { XCTAssertEqual(times?.time(of: key.key), time, key.key) }
        XCTAssertEqual(times?.time(of: "never changed"), 0, "no file before the first version: nothing older")
    }

    /// Any one bit changed anywhere in a segment (marker, length, payload of any length, its
    /// last, padded word, the checksum) and the segment is not read: never taken for a record.
    func testASegmentWithAnyBitChangedIsNotRead() {
        for keyCount in [0, 1, 3, 17] {
            var keys: [PendingKey: Int64] = [:]
            for index in 0..<keyCount { keys[PendingKey("k\(index)" + String(repeating: "x", count: index % 9))] = Int64(100 + index) }
            let segment = ChangeLog.Segment(version: stamp(3), parent: stamp(2), writtenAt: 99, floor: keyCount == 3 ? 50 : nil, keys: keys)
            let bytes = ChangeLog.encode(segment)
            XCTAssertEqual(ChangeLog(decoding: bytes).segments, [segment])
            for index in bytes.indices {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[index] ^= UInt8(1 << bit)
                    XCTAssertEqual(ChangeLog(decoding: changed).segments, [], "\(keyCount) keys: byte \(index), bit \(bit)")
                }
            }
        }
    }

    /// A torn append (a crash half-way) is passed over, and the segments after it still read.
    func testATornSegmentIsSkippedAndReadingResumesAtTheNextMarker() {
        let first = ChangeLog.Segment(version: stamp(1), parent: nil, writtenAt: 1, floor: nil, keys: ["a": 1])
        let torn = Array(ChangeLog.encode(ChangeLog.Segment(version: stamp(9), parent: stamp(1), writtenAt: 2, floor: nil, keys: ["b": 2])).dropLast(5))
        let second = ChangeLog.Segment(version: stamp(2), parent: stamp(1), writtenAt: 3, floor: nil, keys: ["c": 3])
        var flipped = ChangeLog.encode(second)
        let log = ChangeLog(decoding: ChangeLog.encode(first) + torn + ChangeLog.encode(second))
        XCTAssertEqual(log.segments, [first, second])
        XCTAssertEqual(log.times(of: stamp(2))?.time(of: "a"), 1)
        flipped[flipped.count - 12] ^= 0xFF
        XCTAssertEqual(ChangeLog(decoding: ChangeLog.encode(first) + flipped).segments, [first], "a checksum that fails drops the segment")
    }

    /// A segment whose write never happened (its version never became the file) is not walked:
    /// the next write names the version before it as its parent.
    func testAPhantomSegmentIsNeverPartOfARecord() {
        let first = ChangeLog.Segment(version: stamp(1), parent: nil, writtenAt: 1, floor: nil, keys: ["a": 1])
        let phantom = ChangeLog.Segment(version: stamp(2), parent: stamp(1), writtenAt: 5, floor: nil, keys: ["k": 5])
        let next = ChangeLog.Segment(version: stamp(3), parent: stamp(1), writtenAt: 6, floor: nil, keys: ["b": 6])
        let log = ChangeLog(segments: [first, phantom, next])
        let times = log.times(of: stamp(3))
        XCTAssertEqual(times?.time(of: "k"), 0, "k was never changed in a file")
        XCTAssertEqual(times?.time(of: "b"), 6)
        XCTAssertNil(log.times(of: stamp(7)), "a version the log does not know has no record")
    }

    /// A version whose parent the log does not know (written by hand, or by an older release)
    /// counts its keys as changed when that parent was written; a clear is a floor.
    func testAnUnknownParentAndAClearAreFloors() {
        let handWritten = stamp(5, mtime: 50)
        let after = ChangeLog.Segment(version: stamp(6), parent: handWritten, writtenAt: 60_000_000_000, floor: nil, keys: ["a": 59_000_000_000])
        XCTAssertEqual(ChangeLog(segments: [after]).times(of: stamp(6))?.time(of: "b"), 50_000_000_000)
        let cleared = ChangeLog.Segment(version: stamp(7), parent: stamp(6), writtenAt: 70, floor: 65, keys: ["c": 66])
        let times = ChangeLog(segments: [after, cleared]).times(of: stamp(7))
        XCTAssertEqual(times?.time(of: "a"), 65, "the clear changed every key")
        XCTAssertEqual(times?.time(of: "c"), 66)
    }

    /// Compaction keeps each key changed within the horizon and folds the rest into the floor.
    func testCompactionKeepsTheRecentKeysAndFoldsTheRest() {
        let now: Int64 = 100 * 60 * 1_000_000_000
        let old = now - ChangeLog.horizon - 1_000
        let first = ChangeLog.Segment(version: stamp(1), parent: nil, writtenAt: old, floor: nil, keys: ["old": old])
        let second = ChangeLog.Segment(version: stamp(2), parent: stamp(1), writtenAt: now - 10, floor: nil, keys: ["new": now - 10])
        let compacted = ChangeLog(segments: [first, second]).compacted(for: stamp(2), now: now)
        XCTAssertEqual(compacted?.segments.count, 1)
        let times = compacted?.times(of: stamp(2))
        XCTAssertEqual(times?.time(of: "new"), now - 10)
        XCTAssertEqual(times?.time(of: "old"), old)
        XCTAssertEqual(times?.time(of: "never"), old, "folded into the floor")
    }

    /// Real writes: a write appends one segment naming the file it made, and the suite file's
    /// record is read back from the log under the lock.
    func testAWriteRecordsItsChangesForTheFileItMade() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        for index in 0..<40 { store.set(index, forKey: String(repeating: "n", count: 133) + "\(index)") }
        let before = WallClock.now()
        store.set("v", forKey: "k")
        try store.flush()
        let location = try SuiteLocation(suiteName: "group.com.rizq.test", appID: "tests", root: root.path)
        let file = SuiteFile(location: location)
        let times = try file.withLock { lock throws(SuiteStoreError) in try file.load(lock).times }
        XCTAssertGreaterThanOrEqual(times?.time(of: "k") ?? 0, before)
        XCTAssertEqual(times?.keys.count, 41, "every key of the write, none dropped")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.path + "/groups/.group.com.rizq.test.changes"))
    }

    /// A large first write leaves a log over the compaction size that is still all recent: the
    /// next write reads it once to find compaction not worth it, and the writes after it do not
    /// read it again until it has doubled — while every version's record stays whole.
    func testALargeRecentLogIsNotReadAgainByEveryWrite() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let name = String(repeating: "k", count: 24)
        store.batch { batch in
            for index in 0..<40_000 { try? batch.set(index, forKey: name + "\(index)") }
        }
        try store.flush()
        let file = store.openSuite.file
        let logPath = file.changeLogPath
        let firstSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int)
        XCTAssertGreaterThan(firstSize, ChangeLog.compactionSize, "the first write's log is over the compaction size")
        XCTAssertEqual(file.compaction.skipBelow.load(ordering: .relaxed), 0, "no write has weighed a compaction yet")

        store.set(-1, forKey: "one")
        try store.flush()
        let weighedAt = file.compaction.skipBelow.load(ordering: .relaxed)
        XCTAssertEqual(weighedAt, firstSize * 2, "the second write weighed a compaction, found it not worth it, and waits for the log to double")

        let before = WallClock.now()
        store.set(-2, forKey: "two")
        try store.flush()
        XCTAssertEqual(file.compaction.skipBelow.load(ordering: .relaxed), weighedAt, "the third write did not weigh it again")
        let times = try file.withLock { lock throws(SuiteStoreError) in try file.load(lock).times }
        XCTAssertGreaterThanOrEqual(times?.time(of: "two") ?? 0, before, "the newest version's record has its own change")
        XCTAssertEqual(times?.keys.count, 40_002, "and every earlier key's time")
    }
}
