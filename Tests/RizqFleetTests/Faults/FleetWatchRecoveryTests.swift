import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 37, item 15: a watch (`rizq-prefs fleet watch`, `FleetSuite.run`) in another process
/// must hear the next change after anything that takes its connection or its channel away — a
/// restart of the server (clean, immediate, the postmaster killed), the tables dropped and made
/// again, the suite's row removed — and its status must say what happened meanwhile. Each test
/// has a server of its own (`scripts/with-postgres --serve`), since it restarts it or drops its
/// tables.
@Suite(.serialized) struct FleetWatchRecoveryTests {
    /// The JSON line `watch --json` prints for `k` = `value` set by host "writer".
    static func line(_ key: String, _ value: Int) -> String {
        #"{"key":"\#(key)","origin":"writer","removed":false,"value":\#(value)}"#
    }

    @Test func aWatchHearsTheNextChangeAfterEveryRestartAndSaysItWasStaleMeanwhile() async throws {
        let owned = try await PrivatePostgres.start()
        let server = owned.server
        let suite = uniqueSuite("restart-watch")
        let cli = FleetCLI(server: server, root: temporaryRoot("restart-watch"))
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        #expect(try await cli(["set", "k", "0", "--int"], suite: suite, host: "writer").status == 0)
        let watch = try cli.watch(suite: suite, host: "watcher", arguments: ["--json", "--timeout", "2"])
        try #require(await watch.begun(), "the watch never began: \(watch.errors.all)")
        try #require(await watch.lines.waitFor { $0 == Self.line("k", 0) } != nil, "\(watch.lines.all)")

        // Each way a server goes away, twice (the watch went deaf in 5 of 8 restarts).
        let restarts = [("stop", "a clean shutdown"), ("stop-now", "an immediate shutdown"), ("kill9", "the postmaster killed")]
        for round in 1...6 {
            let (verb, what) = restarts[(round - 1) % restarts.count]
            try await server.ctl(verb)
            try await server.ctl("start")
            let set = try await cli(["set", "k", "\(round)", "--int"], suite: suite, host: "writer")
            try #require(set.status == 0, "round \(round): the write after \(what): \(set.stderr)")
            // The status was told: stale while the connection was lost, then live again.
            let lost = await watch.errors.waitFor(timeout: 60) { $0.contains("warning: the fleet engine at") && $0.contains("unavailable") }
            try #require(lost != nil, "round \(round), after \(what): the watch never said the engine was lost: \(watch.errors.all.suffix(5))")
            let back = await watch.errors.waitFor(timeout: 60) { $0.contains("the fleet engine is back") }
            try #require(back != nil, "round \(round), after \(what): the watch never came back: \(watch.errors.all.suffix(5))")
            let heard = await watch.lines.waitFor(timeout: 60) { $0 == Self.line("k", round) }
            try #require(heard != nil, "round \(round), after \(what): the watch never printed the next change: \(watch.lines.all.suffix(3))")
        }
        #expect(watch.process.isRunning, "the watch is still running")
    }

    @Test func aWatchHearsTheNextChangeAfterItsTablesAreDroppedOrItsSuiteRowRemoved() async throws {
        let owned = try await PrivatePostgres.start()
        let server = owned.server
        let suite = uniqueSuite("tables-watch")
        let cli = FleetCLI(server: server, root: temporaryRoot("tables-watch"))
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        #expect(try await cli(["set", "k", "0", "--int"], suite: suite, host: "writer").status == 0)
        let watch = try cli.watch(suite: suite, host: "watcher", arguments: ["--json", "--timeout", "2"])
        try #require(await watch.begun(), "the watch never began: \(watch.errors.all)")
        try #require(await watch.lines.waitFor { $0 == Self.line("k", 0) } != nil, "\(watch.lines.all)")

        // The tables dropped by hand: the next write (from a host that makes them again, or the
        // watch itself) registers the suite afresh, under a new epoch.
        try await server.psql("DROP TABLE rizq_fleet_settings, rizq_fleet_suites")
        let afterDrop = try await cli(["set", "k", "1", "--int"], suite: suite, host: "writer")
        try #require(afterDrop.status == 0, "the write after the drop: \(afterDrop.stderr)")
        let heardAfterDrop = await watch.lines.waitFor(timeout: 60) { $0 == Self.line("k", 1) }
        try #require(heardAfterDrop != nil, "after the tables were dropped and made again, the watch never printed the next change: \(watch.lines.all.suffix(3)) \(watch.errors.all.suffix(3))")

        // The suite's row removed (its settings go with it): registered again, it has a new
        // channel number, and a watch still listening on the old one would hear nothing.
        let before = try await server.psql("SELECT id FROM rizq_fleet_suites WHERE suite = '\(suite)'")
        try await server.psql("DELETE FROM rizq_fleet_suites WHERE suite = '\(suite)'")
        let afterDelete = try await cli(["set", "k", "2", "--int"], suite: suite, host: "writer")
        try #require(afterDelete.status == 0, "the write after the row was removed: \(afterDelete.stderr)")
        let now = try await server.psql("SELECT id FROM rizq_fleet_suites WHERE suite = '\(suite)'")
        #expect(now != before, "the suite has a new channel number (\(before) → \(now))")
        let heardAfterDelete = await watch.lines.waitFor(timeout: 60) { $0 == Self.line("k", 2) }
        #expect(heardAfterDelete != nil, "after the suite's row was removed, the watch never printed the next change: \(watch.lines.all.suffix(3)) \(watch.errors.all.suffix(3))")
    }

    @Test func aSuiteWhoseRunEndedIsNotLive() async throws {
        let server = try PostgresServer.shared()
        let root = temporaryRoot("run-ended")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fleet = try openFleet(uniqueSuite("run-ended"), engine: try server.engine(), root: root)
        let running = Task { try await fleet.run() }
        #expect(await waitUntil { fleet.status.isLive }, "live while it listens")
        running.cancel()
        _ = await running.result
        #expect(!fleet.status.isLive, "nothing listens any more: \(fleet.status)")
    }
}
