import Foundation
import RizqCore
import RizqFleet
import RizqPrefs
import Testing

/// The engine's one rule, checked against a real PostgreSQL: per key, the newest stamp wins,
/// decided in one statement; a write that lost is reported as superseded; deletions are
/// tombstones; revisions follow commit order; tombstones go after their retention.
@Suite struct PostgresFleetEngineTests {
    let server: PostgresServer
    let engine: PostgresFleetEngine

    init() throws {
        server = try PostgresServer.shared()
        engine = try server.engine()
    }

    func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0, _ origin: String) -> ChangeStamp {
        ChangeStamp(milliseconds: milliseconds, counter: counter, origin: origin)
    }

    func all(_ suite: String) async throws -> [String: FleetEntry] {
        var entries: [String: FleetEntry] = [:]
        for entry in try await engine.changes(suite: suite, after: 0, limit: 10_000).entries { entries[entry.change.key] = entry }
        return entries
    }

    @Test func theNewerStampWinsWhateverTheOrderOfArrival() async throws {
        let suite = uniqueSuite("lww")
        _ = try await engine.prepare(suite: suite)
        let later = FleetChange(key: "flag", value: "later", stamp: stamp(2_000, 0, "b"))
        let earlier = FleetChange(key: "flag", value: "earlier", stamp: stamp(1_000, 5, "a"))

        guard case .applied = try await engine.write(later, suite: suite) else { Issue.record("the first write is applied"); return }
        let decision = try await engine.write(earlier, suite: suite)
        #expect(decision == .superseded(by: later.stamp), "an older stamp is reported as superseded, never applied")
        #expect(try await all(suite)["flag"]?.change == later, "the newer value is kept")

        // Same milliseconds: the counter decides, then the origin (byte order).
        let sameMillisecond = FleetChange(key: "flag", value: "counter", stamp: stamp(2_000, 1, "a"))
        guard case .applied = try await engine.write(sameMillisecond, suite: suite) else { Issue.record("a higher counter wins"); return }
        let lowerOrigin = FleetChange(key: "flag", value: "origin", stamp: stamp(2_000, 1, "A"))
        #expect(try await engine.write(lowerOrigin, suite: suite) == .superseded(by: sameMillisecond.stamp), "'A' < 'a' in byte order")
        let higherOrigin = FleetChange(key: "flag", value: "origin", stamp: stamp(2_000, 1, "b"))
        guard case .applied = try await engine.write(higherOrigin, suite: suite) else { Issue.record("'b' > 'a'"); return }
        #expect(try await all(suite)["flag"]?.change.value == "origin")
    }

    @Test func aRetriedWriteIsAppliedOnceAndReportedAsApplied() async throws {
        let suite = uniqueSuite("retry")
        _ = try await engine.prepare(suite: suite)
        let change = FleetChange(key: "k", value: 1, stamp: stamp(5_000, 0, "a"))
        guard case .applied(let first) = try await engine.write(change, suite: suite) else { Issue.record("applied"); return }
        // The same change again (its answer was lost): its own stamp holds the key.
        #expect(try await engine.write(change, suite: suite) == .applied(revision: first))
    }

    @Test func deletionsAreTombstonesThatAnOlderWriteCannotUndo() async throws {
        let suite = uniqueSuite("tombstone")
        _ = try await engine.prepare(suite: suite)
        _ = try await engine.write(FleetChange(key: "gone", value: "v", stamp: stamp(1_000, 0, "a")), suite: suite)
        guard case .applied = try await engine.write(FleetChange(key: "gone", value: nil, stamp: stamp(3_000, 0, "b")), suite: suite) else {
            Issue.record("the deletion is applied")
            return
        }
        #expect(try await engine.write(FleetChange(key: "gone", value: "resurrected", stamp: stamp(2_000, 0, "c")), suite: suite) == .superseded(by: stamp(3_000, 0, "b")))
        let entry = try await all(suite)["gone"]
        #expect(entry != nil, "the tombstone is a row")
        #expect(entry?.change.value == nil, "holding no value")
    }

    @Test func valuesComeBackExactly() async throws {
        let suite = uniqueSuite("values")
        _ = try await engine.prepare(suite: suite)
        let values: [String: PrefValue] = [
            "int.max": .int(Int.max), "int.min": .int(Int.min), "double.one": .double(1.0), "double.tiny": .double(0.1),
            "double.huge": .double(1e300), "text": "héllo \u{1F600} \"quoted\"\n", "data": .data(Data([0, 1, 2, 255])),
            "date": .date(Date(timeIntervalSince1970: 1_764_150_000.123456)), "json": ["a": [1, 2.5, "x", .null], "b": true],
            "unsigned": .unsigned(UInt64.max),
        ]
        var milliseconds: Int64 = 1_000
        for (key, value) in values {
            milliseconds += 1
            _ = try await engine.write(FleetChange(key: key, value: value, stamp: stamp(milliseconds, 0, "a")), suite: suite)
        }
        let stored = try await all(suite)
        for (key, value) in values {
            #expect(stored[key]?.change.value == value, "\(key)")
        }
    }

    @Test func revisionsIncreaseInCommitOrderAndCatchUpReadsPastTheLastSeen() async throws {
        let suite = uniqueSuite("revisions")
        let head = try await engine.prepare(suite: suite)
        #expect(head.revision == 0)
        // Concurrent writers on several connections: every committed revision is distinct.
        let engines = try (0..<4).map { _ in try server.engine() }
        let revisions = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for (index, writer) in engines.enumerated() {
                group.addTask {
                    var mine: [Int64] = []
                    for round in 0..<25 {
                        let change = FleetChange(key: "w\(index).\(round)", value: .int(round), stamp: ChangeStamp(milliseconds: Int64(10_000 + round), counter: 0, origin: "w\(index)"))
                        if case .applied(let revision) = try await writer.write(change, suite: suite) { mine.append(revision) }
                    }
                    return mine
                }
            }
            var all: [Int64] = []
            for try await some in group { all += some }
            return all
        }
        #expect(revisions.count == 100)
        #expect(Set(revisions).count == 100, "one revision per write")
        let page = try await engine.changes(suite: suite, after: 0, limit: 60)
        #expect(page.entries.count == 60)
        #expect(page.hasMore)
        #expect(page.entries.map(\.revision) == page.entries.map(\.revision).sorted(), "lowest first")
        let rest = try await engine.changes(suite: suite, after: page.entries.last?.revision ?? 0, limit: 60)
        #expect(rest.entries.count == 40, "the rest, nothing twice, nothing missed")
        #expect(!rest.hasMore)
        #expect(rest.head.revision == 100)
        for engine in engines { await engine.shutdown() }
    }

    @Test func oldTombstonesArePurgedAndHostsBehindThemReadTheSuiteWhole() async throws {
        let suite = uniqueSuite("purge")
        _ = try await engine.prepare(suite: suite)
        _ = try await engine.write(FleetChange(key: "kept", value: 1, stamp: stamp(1_000, 0, "a")), suite: suite)
        _ = try await engine.write(FleetChange(key: "deleted", value: 1, stamp: stamp(1_001, 0, "a")), suite: suite)
        guard case .applied(let deletion) = try await engine.write(FleetChange(key: "deleted", value: nil, stamp: stamp(1_002, 0, "a")), suite: suite) else {
            Issue.record("deleted")
            return
        }
        #expect(try await engine.purgeTombstones(suite: suite, olderThan: .seconds(3600)) == 0, "a fresh tombstone stays")
        #expect(try await engine.purgeTombstones(suite: suite, olderThan: .zero) == 1)
        let after = try await engine.changes(suite: suite, after: 0, limit: 100)
        #expect(after.entries.map(\.change.key) == ["kept"])
        #expect(after.head.purgedThrough == deletion, "a host behind this revision reads the suite whole")
    }

    @Test func aSuiteCacheBehindPurgedTombstonesForgetsTheDeletedKeys() async throws {
        let suite = uniqueSuite("whole")
        let root = temporaryRoot("whole")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let writer = try openFleet(suite, engine: engine, root: root + "/writer", origin: "writer")
        try await writer.set("v", forKey: "stays")
        try await writer.set("v", forKey: "goes")
        let reader = try openFleet(suite, engine: try server.engine(), root: root + "/reader", origin: "reader")
        try await reader.synchronize()
        #expect(reader.value(forKey: "goes") == "v")
        try await writer.removeValue(forKey: "goes")
        #expect(try await engine.purgeTombstones(suite: suite, olderThan: .zero) == 1)
        // The reader never saw the tombstone, which is gone: it reads the suite whole.
        try await reader.synchronize()
        #expect(reader.value(forKey: "goes") == nil)
        #expect(reader.value(forKey: "stays") == "v")
    }
}
