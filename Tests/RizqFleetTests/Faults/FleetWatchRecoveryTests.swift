import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Synchronization
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

/// The listening connection ended by the server, again and again (`pg_terminate_backend`, as
/// an administrator or a connection pooler does): each time the suite turns stale, comes back
/// live by itself, and hears the next change. Before, the end of the notifications raced the
/// end of the task that read them: when the reader's normal end was seen first, the error was
/// dropped, `listen` returned as if cancelled, and `run()` ended — no socket, no reconnect, the
/// status still live.
@Suite(.serialized) struct FleetListenerTerminatedTests {
    @Test func aListenerWhoseConnectionTheServerEndsFortyTimesReconnectsEachTime() async throws {
        let owned = try await PrivatePostgres.start()
        let server = owned.server
        let suite = uniqueSuite("terminated")
        let root = temporaryRoot("terminated")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try openFleet(suite, engine: try server.engine(callTimeout: .seconds(2)), root: root + "/listener", origin: "listener")
        let writer = try openFleet(suite, engine: try server.engine(callTimeout: .seconds(2)), root: root + "/writer", origin: "writer")
        let seen = StatusLog()
        let statuses = listener.statusUpdates()
        let watching = Task { for await status in statuses { seen.append(status.isLive) } }
        defer { watching.cancel() }
        let running = Task { try await listener.run() }
        defer { running.cancel() }
        try #require(await waitUntil(timeout: 120) { listener.status.isLive }, "live at first")
        var reconnected = 0
        for round in 1...40 {
            let before = seen.count
            let ended = try await server.psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '\(server.value("USER"))'")
            #expect(ended != "0", "round \(round): the server ended the suite's connections")
            // Stale, then live again.
            let back = await waitUntil(timeout: 30) { seen.since(before).contains(false) && seen.since(before).last == true }
            guard back else {
                Issue.record("round \(round): the listener never came back (statuses since: \(seen.since(before)), now \(listener.status))")
                break
            }
            var written = false
            for _ in 0..<3 where !written {
                written = (try? await writer.set(.int(round), forKey: "k")) != nil
            }
            #expect(written, "round \(round): the writer wrote")
            let heard = await waitUntil(timeout: 30) { listener.value(forKey: "k") == .int(round) }
            #expect(heard, "round \(round): the listener heard the next change")
            if heard { reconnected += 1 }
        }
        report("the listening connection ended by the server 40 times: reconnected and heard the next change \(reconnected) times")
        #expect(reconnected == 40)
    }
}

/// The statuses a suite reported, for a test to look at (true: live).
final class StatusLog: Sendable {
    private let entries = Mutex<[Bool]>([])
    func append(_ live: Bool) { entries.withLock { $0.append(live) } }
    var count: Int { entries.withLock { $0.count } }
    func since(_ index: Int) -> [Bool] { entries.withLock { Array($0.dropFirst(index)) } }
}
