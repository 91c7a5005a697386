import Foundation
import RizqCore
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 50, item 4: a fleet row with a far-future stamp — forged, or from a host whose clock is
/// years ahead — won every later write of its key on every host. The engine's statement now
/// refuses a stamp further ahead of the server's clock than the maximum offset (1 day), naming
/// the host; a host does not take such a row; and a row frozen that way before is replaced by
/// the next ordinary write, which is how an administrator repairs it.
@Suite(.serialized) struct FleetClockBoundTests {
    let server: PostgresServer

    init() throws {
        server = try PostgresServer.shared()
    }

    @Test func aStampDaysAheadIsRefusedByTheStatementNamingTheHost() async throws {
        let suite = uniqueSuite("ahead")
        let engine = try server.engine()
        let honest = try openFleet(suite, engine: engine, root: temporaryRoot("ahead-honest"), origin: "honest")
        _ = try await honest.set("on time", forKey: "k")
        let ahead = ChangeStamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 3 * 86_400_000, counter: 0, origin: "fast-host")
        await #expect(throws: FleetError.self) {
            _ = try await engine.write(FleetChange(key: "k", value: "from the future", stamp: ahead), suite: suite)
        }
        do {
            _ = try await engine.write(FleetChange(key: "k", value: "from the future", stamp: ahead), suite: suite)
        } catch {
            #expect(error.description.contains("refused by the engine") && error.description.contains("fast-host") && error.description.contains("3 days"), "\(error)")
        }
        let stored = try await engine.changes(suite: suite, after: 0, limit: 10).entries.first { $0.change.key == "k" }?.change.value
        #expect(stored == "on time", "nothing was written")
    }

    @Test func aKeyFrozenByAFarFutureRowIsNotTakenAndTheNextWriteRepairsIt() async throws {
        let suite = uniqueSuite("frozen")
        let engine = try server.engine()
        let writer = try openFleet(suite, engine: engine, root: temporaryRoot("frozen-writer"), origin: "writer")
        _ = try await writer.set("before", forKey: "k")
        // What a host whose clock said 2100 left in the table before the bound.
        let psql = try PsqlSession(server: server)
        let updated = await psql.ask("UPDATE rizq_fleet_settings SET value = '\"frozen\"', stamp_ms = 4102444800000, stamp_origin = 'clock-2100', revision = revision + 1000 WHERE suite = '\(suite)' AND key = 'k'")
        #expect(updated == ["UPDATE 1"], "\(psql.errors.all)")
        await psql.close()
        // A host that reads it does not take it.
        let reader = try openFleet(suite, engine: engine, root: temporaryRoot("frozen-reader"), origin: "reader")
        try await reader.synchronize()
        #expect(reader.value(forKey: "k") != "frozen", "a stamp from 2100 is not taken")
        // An ordinary write from a host whose clock is right replaces it.
        _ = try await writer.set("repaired", forKey: "k")
        let stored = try await engine.changes(suite: suite, after: 0, limit: 10).entries.first { $0.change.key == "k" }
        #expect(stored?.change.value == "repaired")
        #expect((stored?.change.stamp.milliseconds ?? .max) <= HybridLogicalClock.systemMilliseconds() + 1000)
    }
}
