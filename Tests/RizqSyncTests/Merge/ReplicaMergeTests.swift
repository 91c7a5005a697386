import RizqPrefs
@testable import RizqSync
import XCTest

/// The one conflict rule: per key the newest stamp wins, deletes included, in any order.
final class ReplicaMergeTests: XCTestCase {
    private func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0, _ origin: String = "a") -> ChangeStamp {
        ChangeStamp(milliseconds: milliseconds, counter: counter, origin: origin)
    }

    func testTheNewestStampWinsValuesAndTombstonesAlike() {
        let old = SyncedEntry(value: "light", stamp: stamp(10))
        let new = SyncedEntry(value: "dark", stamp: stamp(20, 0, "b"))
        let deleted = SyncedEntry(value: nil, stamp: stamp(30))
        XCTAssertEqual(ReplicaMerge.winner(old, new), new)
        XCTAssertEqual(ReplicaMerge.winner(new, old), new)
        XCTAssertEqual(ReplicaMerge.winner(new, deleted), deleted, "a later delete wins over a value")
        XCTAssertEqual(ReplicaMerge.winner(nil, old), old)
    }

    func testMergingIsOrderIndependentAndIdempotent() {
        var replicas: [[String: SyncedEntry]] = []
        for device in 0..<4 {
            var entries: [String: SyncedEntry] = [:]
            for key in 0..<20 where (key + device) % 3 != 0 {
                let deleted = (key * device) % 7 == 0
                entries["k\(key)"] = SyncedEntry(
                    value: deleted ? nil : .string("d\(device)k\(key)"),
                    stamp: stamp(Int64((key * 31 + device * 17) % 23), UInt32(device % 2), "d\(device)"))
            }
            replicas.append(entries)
        }
        var forward: [String: SyncedEntry] = [:]
        for replica in replicas { ReplicaMerge.merge(replica, into: &forward, accepts: { _ in true }) }
        var backward: [String: SyncedEntry] = [:]
        for replica in replicas.reversed() { ReplicaMerge.merge(replica, into: &backward, accepts: { _ in true }) }
        XCTAssertEqual(forward, backward)
        var twice = forward
        for replica in replicas {
            XCTAssertEqual(ReplicaMerge.merge(replica, into: &twice, accepts: { _ in true }), [], "a second merge changes nothing")
        }
        XCTAssertEqual(twice, forward)
        for (key, winner) in forward {
            let newest = replicas.compactMap { $0[key] }.max { $0.stamp < $1.stamp }
            XCTAssertEqual(winner, newest, key)
        }
    }

    func testKeysNotAcceptedAreLeftOut() {
        var entries: [String: SyncedEntry] = [:]
        let changed = ReplicaMerge.merge(
            ["synced": SyncedEntry(value: 1, stamp: stamp(1)), "local": SyncedEntry(value: 2, stamp: stamp(1))], into: &entries,
            accepts: { $0 == "synced" })
        XCTAssertEqual(changed, ["synced"])
        XCTAssertEqual(Array(entries.keys), ["synced"])
    }
}
