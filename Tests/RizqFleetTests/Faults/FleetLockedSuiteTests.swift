import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 37, item 18: with the suite's row locked by another session, `fleet set --timeout 2`
/// exited 6 saying nothing was written — and the write committed when the lock went (the
/// client had stopped waiting; the server had not). The server now cancels a write that waits
/// for a lock longer than three quarters of the call's deadline: a time-out means nothing was
/// written, and nothing waits on the server.
@Suite struct FleetLockedSuiteTests {
    let server: PostgresServer

    init() throws {
        server = try PostgresServer.shared()
    }

    @Test func aWriteStuckBehindALockIsCancelledOnTheServerAndNeverCommits() async throws {
        let suite = uniqueSuite("locked")
        let cli = FleetCLI(server: server, root: temporaryRoot("locked"))
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        #expect(try await cli(["set", "first", "1", "--int"], suite: suite).status == 0)

        let locker = try PsqlSession(server: server)
        let lockerPID = try #require(await locker.value("SELECT pg_backend_pid()"), "psql: \(locker.errors.all)")
        #expect(await locker.ask("BEGIN") != nil)
        let locked = await locker.value("SELECT revision FROM rizq_fleet_suites WHERE suite = '\(suite)' FOR UPDATE")
        #expect(locked != nil, "the suite's row is locked: \(locker.errors.all)")

        let write = try await cli(["set", "k", "locked", "--timeout", "2"], suite: suite)
        #expect(write.status == 6, "\(write.stderr)")
        #expect(write.stderr.contains("nothing of this call took effect"), "\(write.stderr)")
        #expect(write.stderr.contains("lock"), "the message says why: \(write.stderr)")
        #expect(!write.stderr.contains("may still take effect"), "\(write.stderr)")
        // The server gave up on it too: nothing waits behind the lock.
        let waiting = try await server.psql("SELECT count(*) FROM pg_stat_activity WHERE \(lockerPID) = ANY(pg_blocking_pids(pid))")
        #expect(waiting == "0", "no session still waits to run the write")

        #expect(await locker.ask("COMMIT") != nil)
        await locker.close()
        // A later write of the suite waits for anything queued before it on the row, so once it
        // is committed a write left waiting would have committed too.
        #expect(try await cli(["set", "later", "1", "--int"], suite: suite).status == 0)
        let read = try await cli(["get", "k"], suite: suite, host: "other")
        #expect(read.status == 1, "the write reported as not written never took effect: \(read.stdout)")
    }
}
