import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 37, item 16: a backup restored (`pg_dump`, then `psql -f`, with the engine up) puts the
/// suite back at a lower revision under the same epoch. A host that had read further must
/// notice — its revision is above the engine's head — and read the suite whole: the values as
/// restored, the keys the restore removed gone, the writes made after the restore seen. A
/// server of its own: the restore replaces the fleet tables.
@Suite(.serialized) struct FleetRestoreTests {
    @Test func hostsThatReadFurtherThanARestoredBackupReadTheSuiteWhole() async throws {
        let owned = try await PrivatePostgres.start()
        let server = owned.server
        let suite = uniqueSuite("restore")
        let root = temporaryRoot("restore")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let writer = try openFleet(suite, engine: try server.engine(), root: root + "/writer", origin: "writer")
        try await writer.set("1", forKey: "a")
        try await writer.set("1", forKey: "b")

        // A host that listens (the notification path) and one that only catches up when asked
        // (the path of `fleet get`).
        let listener = try FleetHost(server: server, suite: suite, origin: "listener")
        let reader = try FleetHost(server: server, suite: suite, origin: "reader", arguments: ["--no-run"])
        try #require(await listener.lines.waitFor(timeout: 120) { $0 == "status live" } != nil, "never went live: \(listener.errors.all)")
        #expect(await reader.ask("sync", answers: ["synced", "error"]) == "synced")

        // The backup, then changes after it that both hosts read.
        let dump = try await server.ctl("pg_dump", ["-d", server.value("DB"), "--clean", "--if-exists", "-t", "rizq_fleet_suites", "-t", "rizq_fleet_settings"])
        try #require(dump.contains("rizq_fleet_settings"), "pg_dump wrote the tables")
        try await writer.set("2", forKey: "a")
        try await writer.removeValue(forKey: "b")
        try await writer.set("1", forKey: "c")
        #expect(await listener.lines.waitUntil(printed: #"change c "1""#), "the listener read past the backup")
        #expect(await reader.ask("sync", answers: ["synced", "error"]) == "synced")
        #expect(await reader.ask("get c", answers: ["value c"]) == #"value c "1""#)

        // The restore, in one transaction, the engine up and the listener listening.
        let file = root + "/backup.sql"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(dump.utf8).write(to: URL(fileURLWithPath: file))
        try await server.ctl("psql", ["-d", server.value("DB"), "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", file])
        #expect(try await server.psql("SELECT revision FROM rizq_fleet_suites WHERE suite = '\(suite)'") == "2", "the suite is back at the backup's revision")

        // A write after the restore takes a revision the hosts have already read.
        try await writer.set("1", forKey: "d")

        // The listener: the notification announces a revision it has read, with a stamp newer
        // than anything it holds for the key: it catches up, notices, and reads the suite whole.
        for expected in [#"change d "1""#, #"change a "1""#, #"change b "1""#, "change c removed"] {
            #expect(await listener.lines.waitUntil(printed: expected, timeout: 60), "the listener printed \(expected): \(listener.lines.all.suffix(6))")
        }
        // The reader, at its next catch-up.
        #expect(await reader.ask("sync", answers: ["synced", "error"]) == "synced")
        for host in [listener, reader] {
            #expect(await host.ask("get a", answers: ["value a"]) == #"value a "1""#, "\(host.origin): the value the restore put back")
            #expect(await host.ask("get b", answers: ["value b"]) == #"value b "1""#, "\(host.origin): the key whose deletion the restore undid")
            #expect(await host.ask("get c", answers: ["value c"]) == "value c absent", "\(host.origin): the key the restore removed")
            #expect(await host.ask("get d", answers: ["value d"]) == #"value d "1""#, "\(host.origin): the key written after the restore")
        }
        #expect(listener.errors.all.contains { $0.contains("whole") && $0.contains("went back") }, "the listener said why it read the suite whole: \(listener.errors.all.suffix(3))")
    }
}
