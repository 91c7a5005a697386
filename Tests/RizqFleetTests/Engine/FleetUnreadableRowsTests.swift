import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 37, item 17: rows whose value is not JSON (written by hand) are skipped and reported
/// once, and reading goes on past them: 1,000 of them in a row made `fleet get` and `fleet set`
/// read the same page for ever, writing about 150,000 lines a second to stderr.
@Suite struct FleetUnreadableRowsTests {
    let server: PostgresServer

    init() throws {
        server = try PostgresServer.shared()
    }

    /// A suite whose revisions 1–1,000 are rows that are not JSON, then `good` = 1.
    func suiteWithAThousandUnreadableRows(_ label: String) async throws -> String {
        let suite = uniqueSuite(label)
        let engine = try server.engine()
        _ = try await engine.prepare(suite: suite)
        try await server.psql("""
            INSERT INTO rizq_fleet_settings (suite, key, value, stamp_ms, stamp_counter, stamp_origin, revision)
            SELECT '\(suite)', 'bad.' || g, 'not json ' || g, 1000 + g, 0, 'by-hand', g FROM generate_series(1, 1000) g;
            UPDATE rizq_fleet_suites SET revision = 1000 WHERE suite = '\(suite)'
            """)
        let written = try await engine.write(FleetChange(key: "good", value: 1, stamp: ChangeStamp(milliseconds: 5_000, counter: 0, origin: "writer")), suite: suite)
        #expect(written == .applied(revision: 1001))
        await engine.shutdown()
        return suite
    }

    @Test func theEngineReportsRowsItCannotReadAndTheReaderGoesOnPastThem() async throws {
        let suite = try await suiteWithAThousandUnreadableRows("unreadable-engine")
        let engine = try server.engine()
        let page = try await engine.changes(suite: suite, after: 0, limit: 1000)
        #expect(page.entries.isEmpty)
        #expect(page.unreadable.count == 1000)
        #expect(page.unreadable.first?.key == "bad.1")
        #expect(page.unreadable.first?.revision == 1)
        #expect(page.unreadable.first?.reason.contains("not JSON") == true)
        #expect(page.hasMore)
        #expect(page.lastRevision == 1000, "a reader continues above the unreadable rows")

        let root = temporaryRoot("unreadable-engine")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fleet = try openFleet(suite, engine: engine, root: root)
        // Bounded: before the fix the catch-up read the same page for ever.
        let syncing = Task { try await fleet.synchronize() }
        let bound = Task {
            try await Task.sleep(for: .seconds(120))
            syncing.cancel()
        }
        let outcome = await syncing.result
        bound.cancel()
        #expect(throws: Never.self, "the catch-up ended by itself") { try outcome.get() }
        #expect(fleet.value(forKey: "good") == 1)
        #expect(fleet.revision == 1001)
        #expect(fleet.value(forKey: "bad.1") == nil, "nothing guessed")
    }

    @Test(arguments: [["get", "good"], ["set", "other", "2", "--int"]])
    func getAndSetEndAndSayOnceThatRowsWereSkipped(command: [String]) async throws {
        let suite = try await suiteWithAThousandUnreadableRows("unreadable-cli")
        let cli = FleetCLI(server: server, root: temporaryRoot("unreadable-cli"))
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        // Bounded: before the fix the command never ended.
        let result = try await runBounded(
            productsFolder + "/rizq-prefs", cli.commandLine(command, suite: suite), environment: cli.environment(host: "host"), timeout: 120)
        let (killed, status, lines) = (result.killed, result.status, result.stderrLines)
        let head = String(result.stderrHead.prefix(500))
        #expect(!killed, "\(command[0]) ended by itself (it wrote \(lines) lines to stderr before it was killed)")
        #expect(status == 0, "\(head)")
        if command[0] == "get" { #expect(result.stdout == "1\n") }
        let mentions = result.stderrHead.split(separator: "\n").filter { $0.contains("not JSON") }
        let mentionCount = mentions.count
        let first = mentions.first.map(String.init) ?? ""
        #expect(mentionCount == 1, "said once: \(lines) stderr lines: \(head)")
        #expect(first.contains("1000 rows"), "how many: \(first.prefix(300))")
        #expect(first.contains("'bad.1'"), "which keys: \(first.prefix(300))")
        #expect(lines <= 2, "\(head)")

        // The host read past them: its next command says nothing more.
        let again = try await runBounded(
            productsFolder + "/rizq-prefs", cli.commandLine(["get", "good"], suite: suite), environment: cli.environment(host: "host"), timeout: 120)
        let (againStatus, againHead) = (again.status, String(again.stderrHead.prefix(500)))
        #expect(againStatus == 0)
        #expect(!againHead.contains("not JSON"), "\(againHead)")
    }
}
