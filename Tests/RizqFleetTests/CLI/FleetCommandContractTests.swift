import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 37, item 20: what the fleet commands say about themselves is what they do — the exit
/// statuses in `--help`, a key the engine cannot hold named before anything is sent, and one
/// change one line in `fleet watch` whatever its key holds.
@Suite struct FleetCommandContractTests {
    let server: PostgresServer
    let cli: FleetCLI
    static let unreachable = "postgres://nobody@127.0.0.1:1/none?sslmode=disable"

    init() throws {
        server = try PostgresServer.shared()
        cli = FleetCLI(server: server, root: temporaryRoot("contract"))
    }

    /// `rizq-prefs fleet COMMAND --help`, whitespace collapsed (argument-parser wraps lines).
    func help(_ command: [String]) async throws -> String {
        let result = try await run(productsFolder + "/rizq-prefs", ["fleet"] + command + ["--help"])
        #expect(result.status == 0)
        return result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The statuses of the EXIT STATUS table of `rizq-prefs fleet --help`: status → its text.
    func exitStatusTable() async throws -> [Int32: String] {
        let text = try await run(productsFolder + "/rizq-prefs", ["fleet", "--help"]).stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "EXIT STATUS" }, "an EXIT STATUS section: \(text)")
        var table: [Int32: String] = [:]
        var last: Int32?
        for line in lines[(start + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed == trimmed.uppercased() && trimmed.first?.isLetter == true { break }
            let words = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
            if let status = Int32(words[0]), words.count == 2 {
                table[status] = words[1]
                last = status
            } else if let last {
                table[last, default: ""] += " " + trimmed
            }
        }
        return table
    }

    /// The number written just before `phrase` in `text` ("Exit 7 when a later change…").
    func status(before phrase: String, in text: String) throws -> Int32 {
        let range = try #require(text.range(of: phrase), "'\(phrase)' in: \(text)")
        let words = text[..<range.lowerBound].split(separator: " ")
        return try #require(words.last.flatMap { Int32($0) }, "a number before '\(phrase)' in: \(text)")
    }

    /// The number written just after `phrase` in `text` ("… and exits 7").
    func status(after phrase: String, in text: String) throws -> Int32 {
        let range = try #require(text.range(of: phrase), "'\(phrase)' in: \(text)")
        let word = text[range.upperBound...].prefix { $0 == " " || $0.isNumber }.trimmingCharacters(in: .whitespaces)
        return try #require(Int32(word), "a number after '\(phrase)' in: \(text)")
    }

    /// The one status of `table` whose text says `word`.
    func status(saying word: String, in table: [Int32: String]) throws -> Int32 {
        let matching = table.filter { $0.value.contains(word) }
        try #require(matching.count == 1, "one status says '\(word)': \(table)")
        return try #require(matching.first?.key)
    }

    /// Runs `command` (a write of `key`) while the suite's row is locked, and meanwhile stores a
    /// change of `key` stamped an hour ahead, so that the command's write loses: the command's
    /// exit status.
    func statusWhenSuperseded(_ command: [String], key: String, suite: String) async throws -> (status: Int32, stderr: String) {
        let locker = try PsqlSession(server: server)
        let observer = try PsqlSession(server: server)
        let lockerPID = try #require(await locker.value("SELECT pg_backend_pid()"))
        #expect(await locker.ask("BEGIN") != nil)
        // A row lock only (a new version of the row would make the command's registration of
        // the suite wait too, before it has read anything).
        #expect(await locker.value("SELECT revision FROM rizq_fleet_suites WHERE suite = '\(suite)' FOR UPDATE") != nil)
        let cli = cli
        let running = Task { try await cli(command + ["--timeout", "60"], suite: suite) }
        // The command's write waits for the row: only then is the winner stored and committed.
        let waiting = await waitUntil(observer, "SELECT count(*) FROM pg_stat_activity WHERE \(lockerPID) = ANY(pg_blocking_pids(pid))", is: "1")
        #expect(waiting, "the command's write waited for the locked row")
        let revision = try #require(await locker.value("UPDATE rizq_fleet_suites SET revision = revision + 1 WHERE suite = '\(suite)' RETURNING revision"))
        let future = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
        await locker.ask("""
            INSERT INTO rizq_fleet_settings (suite, key, value, stamp_ms, stamp_counter, stamp_origin, revision)
            VALUES ('\(suite)', '\(key)', '"elsewhere"', \(future), 0, 'elsewhere', \(revision))
            ON CONFLICT (suite, key) DO UPDATE SET value = excluded.value, stamp_ms = excluded.stamp_ms,
                stamp_counter = excluded.stamp_counter, stamp_origin = excluded.stamp_origin, revision = excluded.revision
            """)
        #expect(await locker.ask("COMMIT") != nil)
        let result = try await running.value
        await locker.close()
        await observer.close()
        return (result.status, result.stderr)
    }

    @Test func theExitStatusesTheHelpDocumentsAreTheOnesTheCommandsReturn() async throws {
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        let table = try await exitStatusTable()
        let notFound = try status(saying: "not found", in: table)
        let engine = try status(saying: "unreachable", in: table)
        let superseded = try status(saying: "superseded", in: table)
        let usage = try status(saying: "usage error", in: table)
        let set = try await help(["set"])
        let delete = try await help(["delete"])
        let importHelp = try await help(["import"])
        #expect(try status(before: "when a later change", in: set) == superseded, "set --help: \(set)")
        #expect(try status(before: "when the engine cannot be reached", in: set) == engine, "set --help: \(set)")
        #expect(try status(before: "when a later change", in: delete) == superseded, "delete --help: \(delete)")
        #expect(try status(before: "when the engine cannot be reached", in: delete) == engine, "delete --help: \(delete)")
        #expect(try status(before: "when the key is not there", in: delete) == notFound, "delete --help: \(delete)")
        #expect(try status(before: "when the engine cannot be reached", in: importHelp) == engine, "import --help: \(importHelp)")
        #expect(try status(after: "changes won and exits", in: importHelp.replacingOccurrences(of: "change won", with: "changes won")) == superseded, "import --help: \(importHelp)")
        #expect(try status(after: "is an error (exit", in: importHelp) == usage, "import --help: \(importHelp)")

        // What the commands return.
        let suite = uniqueSuite("contract")
        #expect(try await cli(["set", "k", "1", "--int"], suite: suite).status == 0)
        #expect(try await cli(["set", "k", "2", "--int", "--timeout", "2"], suite: suite, engine: Self.unreachable).status == engine, "set, engine unreachable")
        #expect(try await cli(["delete", "k", "--timeout", "2"], suite: suite, engine: Self.unreachable).status == engine, "delete, engine unreachable")
        #expect(try await cli(["delete", "absent"], suite: suite).status == notFound, "delete, no such key")
        #expect(try await cli(["set", "k", "x", "--int"], suite: suite).status == usage, "set, a value that does not parse")
        let setLost = try await statusWhenSuperseded(["set", "k", "3", "--int"], key: "k", suite: suite)
        #expect(setLost.status == superseded, "set, a later change won: \(setLost.stderr)")
        #expect(setLost.stderr.contains("superseded"), "\(setLost.stderr)")
        #expect(try await cli(["set", "gone", "1", "--int"], suite: suite).status == 0)
        let deleteLost = try await statusWhenSuperseded(["delete", "gone"], key: "gone", suite: suite)
        #expect(deleteLost.status == superseded, "delete, a later change won: \(deleteLost.stderr)")
    }

    @Test func aKeyHoldingNULIsRefusedByNameBeforeAnythingIsSent() async throws {
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        let suite = uniqueSuite("nul-key")
        let imported = try await cli(["import", "-"], suite: suite, input: #"{"a\u0000b": 1, "ok": 2}"#)
        #expect(imported.status == 2, "a usage error, not the engine's: \(imported.stderr)")
        #expect(imported.stderr.contains(#"'a\u{0}b'"#), "the key, named (escaped): \(imported.stderr)")
        #expect(imported.stderr.contains("NUL"), "\(imported.stderr)")
        #expect(!imported.stderr.contains("password"), "\(imported.stderr)")
        #expect(try await cli(["get", "ok"], suite: suite).status == 1, "nothing of the import was written")

        // The library says the same, and so does the engine called directly.
        let root = temporaryRoot("nul-key")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let engine = try server.engine()
        let fleet = try openFleet(suite, engine: engine, root: root)
        await #expect(throws: FleetError.invalidValue(key: "a\u{0}b", reason: FleetSuite.problem(withKey: "a\u{0}b") ?? "")) {
            try await fleet.set(1, forKey: "a\u{0}b")
        }
        await #expect(throws: FleetError.self) {
            try await engine.write(FleetChange(key: "a\u{0}b", value: 1, stamp: ChangeStamp(milliseconds: 1, counter: 0, origin: "t")), suite: suite)
        }
        #expect(FleetSuite.problem(withKey: "a.b") == nil)
    }

    @Test func aWatchPrintsOneLinePerChangeWhateverTheKeyHolds() async throws {
        defer { try? FileManager.default.removeItem(atPath: cli.root) }
        let suite = uniqueSuite("watch-escape")
        let watch = try cli.watch(suite: suite, host: "watcher")
        try #require(await watch.begun(), "\(watch.errors.all)")
        let root = temporaryRoot("watch-escape")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let writer = try openFleet(suite, engine: try server.engine(), root: root, origin: "writer")
        try await writer.set(2, forKey: "evil\nforged = 1")
        try await writer.set("\u{202E}txt.exe", forKey: "name\u{202E}")
        try await writer.set(3, forKey: "after")
        #expect(await watch.lines.waitUntil(printed: "after = 3"), "\(watch.lines.all)")
        #expect(watch.lines.all == [#"evil\u{A}forged = 1 = 2"#, #"name\u{202E} = "\u202etxt.exe""#, "after = 3"], "\(watch.lines.all)")
        writer.settle()
    }
}
